import CZip

/// A libzip error: its `ZIP_ER_*` code and libzip's own description.
struct LibZipError: Error, CustomStringConvertible {
    let code: Int32
    let description: String

    /// The errors the archive reader tells apart when opening (entries' data are read by
    /// ``EntryDataReader``, not through libzip).
    enum Kind {
        case notZip
        case multiDisk
        case other
    }

    var kind: Kind {
        switch code {
        case ZIP_ER_NOZIP: .notZip
        case ZIP_ER_MULTIDISK: .multiDisk
        default: .other
        }
    }

    /// Reads (and finalizes nothing of) a `zip_error_t`.
    init(_ error: inout zip_error_t) {
        code = zip_error_code_zip(&error)
        description = String(cString: zip_error_strerror(&error))
    }

    init(archive: OpaquePointer) {
        let error = zip_get_error(archive)
        code = zip_error_code_zip(error)
        description = String(cString: zip_error_strerror(error))
    }

    init(source: OpaquePointer) {
        let error = zip_source_error(source)
        code = zip_error_code_zip(error)
        description = String(cString: zip_error_strerror(error))
    }

    /// An error libzip did not report itself (a closed archive, no memory).
    init(code: Int32) {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        self.init(&error)
    }
}
