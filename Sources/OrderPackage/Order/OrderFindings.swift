import WalletPrimitives

/// What reading `order.json` found: problems, and the package files it refers to.
final class OrderFindings {
    struct FileReference {
        var name: String
        var path: JSONPath
        /// Named as an image (a logo, a line item's image): its file must be one.
        var isImage = false
    }

    private(set) var errors: [OrderError] = []
    private(set) var warnings: [OrderError] = []
    private(set) var fileReferences: [FileReference] = []

    func record(_ finding: OrderError) {
        if finding.isError {
            errors.append(finding)
        } else {
            warnings.append(finding)
        }
    }

    func referenceFile(_ name: String, at path: JSONPath, isImage: Bool) {
        fileReferences.append(FileReference(name: name, path: path, isImage: isImage))
    }
}
