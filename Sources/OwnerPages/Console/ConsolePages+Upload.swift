import Foundation
import Hummingbird
import OrderPackage
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletOrders

/// The upload form: an archive verified as the store would, its report shown with every problem
/// beside the JSON path or zip entry it names; stored too when asked and valid.
extension ConsolePages {
    struct IssueRow {
        var location: String
        var message: String
        var code: String
    }

    struct UploadModel: PageModel {
        var frame: PageFrame
        var formToken: String
        var maximumSize: String
        /// After a post: the file's name and what became of it.
        var fileName: String?
        var verdict: String?
        var errors: [IssueRow] = []
        var warnings: [IssueRow] = []
        var orderLink: String?
    }

    @Sendable func uploadForm(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        return PageResponse.render("consoleUpload", uploadModel(session.formToken))
    }

    private func uploadModel(_ formToken: String) -> UploadModel {
        UploadModel(
            frame: PageFrame(title: "Upload", text: .console, session: formToken, console: true), formToken: formToken,
            maximumSize: limits.archiveBodySize >= 1 << 20
                ? "\(limits.archiveBodySize >> 20) MiB" : "\(limits.archiveBodySize >> 10) KiB")
    }

    /// `POST /console/upload` (`multipart/form-data`: `csrf_token`, `archive`, `store`): `200`
    /// with the report of a valid archive (stored when `store` is on), `422` with the report of an
    /// invalid one.
    @Sendable func upload(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        // The form's few small fields travel with the archive.
        let form = try await MultipartForm.read(request, limit: limits.archiveBodySize + 16 * 1024)
        try PageForm.checkToken(
            presented: form["csrf_token"].map { String(decoding: $0.content, as: UTF8.self) }, expected: session.formToken)
        var model = uploadModel(session.formToken)
        guard let file = form["archive"], !file.content.isEmpty else {
            model.verdict = "Choose an .order file to verify."
            return PageResponse.render("consoleUpload", model, status: .unprocessableContent)
        }
        model.fileName = file.filename ?? "the upload"
        let archive = Data(file.content)
        switch wallet.orders.prepareOrder(signedArchive: archive) {
        case .invalid(let report):
            model.verdict = report.errors.count == 1 ? "1 error: not valid." : "\(report.errors.count) errors: not valid."
            model.errors = report.errors.map(Self.row)
            model.warnings = report.warnings.map(Self.row)
            return PageResponse.render("consoleUpload", model, status: .unprocessableContent)
        case .valid(let prepared):
            model.warnings = prepared.report.warnings.map(Self.row)
            let identifier = prepared.candidate.identifier
            model.verdict = "Valid: \(identifier.orderTypeIdentifier) \(identifier.orderIdentifier)."
            if form["store"] != nil {
                switch try await wallet.orders.saveOrder(prepared) {
                case .added: model.verdict = "Valid, and stored: \(identifier.orderIdentifier)."
                case .newerExisting: model.verdict = "Valid, not stored: a newer version of \(identifier.orderIdentifier) is."
                case .cancelled: model.verdict = "Valid, not stored: the store declined it."
                }
                model.orderLink = ConsolePages.orderPath(identifier)
            }
            return PageResponse.render("consoleUpload", model)
        }
    }

    private static func row(_ issue: VerificationIssue) -> IssueRow {
        IssueRow(location: issue.path ?? "the archive", message: issue.message, code: issue.code.rawValue)
    }
}
