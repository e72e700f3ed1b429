import PostgresNIO
import Synchronization
import WalletStorage

/// Statements the repositories mark reusable, prepared once per connection through postgres-nio's
/// `PostgresPreparedStatement` and executed by name afterwards: the server parses and plans them
/// once per connection instead of on every execution.
///
/// postgres-nio names a prepared statement by its type and reads its text from the type, while
/// the repositories' statements are texts shared with SQLite. So each distinct text — with the
/// kinds of its arguments, as a NULL leaves a parameter's type to the server — gets a *slot*
/// the first time it runs: a number whose binary digits are spelled as a type
/// (``PreparedSlotBit``), so that `PreparedStatement<Slot>` has a name (`wallet_<number>`) and a
/// text of its own. Slots are process-wide and never reassigned, so a name always means one text
/// on every connection. The first ``capacity`` texts get one; later ones run unnamed, as every
/// statement does with `prepared=false`.
enum PreparedStatements {
    /// How many statement texts are prepared, per connection at most: enough for every reusable
    /// statement the repositories have, with room for their NULL variants.
    static let capacity = 1 << PreparedSlotBits.count

    private struct Key: Hashable {
        var sql: String
        var kinds: [UInt8]
    }

    private struct Table {
        var slots: [Key: Int] = [:]
        var texts: [String] = []
    }

    private static let table = Mutex(Table())
    /// The slot types, by number.
    private static let types: [any PreparedSlot.Type] = (0..<capacity).map { PreparedSlotBits.type(for: $0) }

    /// The slot `sql` with arguments like `arguments` runs in, assigned now if it has none; nil
    /// when every slot is taken.
    static func slot(for sql: String, _ arguments: [SQLValue]) -> (any PreparedSlot.Type)? {
        let key = Key(sql: sql, kinds: arguments.map(\.kind))
        let number: Int? = table.withLock { table in
            if let number = table.slots[key] { return number }
            guard table.texts.count < capacity else { return nil }
            table.slots[key] = table.texts.count
            table.texts.append(sql)
            return table.texts.count - 1
        }
        return number.map { types[$0] }
    }

    /// The text of slot `number` (assigned before any statement of the slot runs).
    static func text(of number: Int) -> String {
        table.withLock { $0.texts[number] }
    }
}

/// One statement text's prepared form: postgres-nio prepares it on a connection the first time
/// it runs there, then binds and executes it by name.
struct PreparedStatement<Slot: PreparedSlot>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static var name: String { "wallet_\(Slot.number)" }
    static var sql: String { PreparedStatements.text(of: Slot.number) }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// A slot number spelled as a type: ``PreparedSlotEnd`` wrapped in one ``PreparedSlotBit`` per
/// binary digit, the lowest digit outermost.
protocol PreparedSlot: Sendable {
    static var number: Int { get }
}

enum PreparedSlotEnd: PreparedSlot {
    static var number: Int { 0 }
}

enum PreparedSlotBit<Higher: PreparedSlot, Digit: PreparedSlotDigit>: PreparedSlot {
    static var number: Int { Higher.number << 1 | Digit.value }
}

protocol PreparedSlotDigit {
    static var value: Int { get }
}

enum PreparedSlotZero: PreparedSlotDigit {
    static var value: Int { 0 }
}

enum PreparedSlotOne: PreparedSlotDigit {
    static var value: Int { 1 }
}

enum PreparedSlotBits {
    /// Binary digits per slot number.
    static let count = 8

    /// The type of slot `number`: its digits wrapped around ``PreparedSlotEnd``, highest first.
    static func type(for number: Int) -> any PreparedSlot.Type {
        var type: any PreparedSlot.Type = PreparedSlotEnd.self
        for digit in (0..<count).reversed() {
            type = wrap(type, one: number >> digit & 1 == 1)
        }
        return type
    }

    private static func wrap<Higher: PreparedSlot>(_ higher: Higher.Type, one: Bool) -> any PreparedSlot.Type {
        one ? PreparedSlotBit<Higher, PreparedSlotOne>.self : PreparedSlotBit<Higher, PreparedSlotZero>.self
    }
}

extension SQLValue {
    /// What kind of value binds the parameter: the server types a parameter from the first
    /// execution that prepares it, so each kind of argument list is a statement of its own.
    fileprivate var kind: UInt8 {
        switch self {
        case .null: 0
        case .integer: 1
        case .text: 2
        case .blob: 3
        }
    }
}
