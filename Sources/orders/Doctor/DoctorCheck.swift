import WalletPrimitives
import WalletWire

/// One line of `orders doctor`: what was checked, how it went, and why.
struct DoctorCheck: Sendable {
    enum Status: String, Sendable, Comparable {
        case ok, warn, error

        static func < (lhs: Status, rhs: Status) -> Bool {
            let order: [Status] = [.ok, .warn, .error]
            return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
        }
    }

    var check: String
    var status: Status
    var detail: String
    var code: String?

    static func ok(_ check: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .ok, detail: detail)
    }

    static func warn(_ check: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .warn, detail: detail)
    }

    static func error(_ check: String, _ detail: String, code: String? = nil) -> DoctorCheck {
        DoctorCheck(check: check, status: .error, detail: detail, code: code)
    }

    /// A library error as a failed check: its code and message.
    static func error(_ check: String, _ failure: any WalletError) -> DoctorCheck {
        error(check, "\(failure.code): \(failure.message)", code: failure.code)
    }

    /// `ok    store: …`, the status padded so that the checks line up (`Output.line` makes the
    /// detail safe for a terminal).
    var line: String {
        "\(status.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(check): \(detail)"
    }

    var wire: WireDoctorCheck {
        WireDoctorCheck(check: check, status: status.rawValue, detail: detail, code: code)
    }
}
