/// One table a store copy carries: its name and columns, which every backend keeps under the same
/// names, and the key its rows are read in order of (a prefix of ``columns``).
package struct CopiedTable: Sendable, Hashable {
    package var name: String
    package var columns: [String]
    /// How many leading columns form the key (unique, never NULL).
    package var keyLength: Int

    package init(_ name: String, _ columns: [String], keyLength: Int = 1) {
        self.name = name
        self.columns = columns
        self.keyLength = keyLength
    }

    package var key: ArraySlice<String> { columns.prefix(keyLength) }
}
