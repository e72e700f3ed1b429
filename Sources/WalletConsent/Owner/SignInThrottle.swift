import Foundation

/// Failed sign-ins allowed per ``window``: from one address, and in total. Past either, sign-in is
/// refused without checking the password, so guessing gains nothing; the counts are in the store,
/// shared by every instance. The total bound means a flood from many addresses locks the owner out
/// too, for one window at most: the price of a bound an attacker with many addresses cannot
/// multiply.
public struct SignInThrottle: Sendable, Hashable {
    public var window: TimeInterval
    public var perAddress: Int
    public var total: Int

    public init(window: TimeInterval = 15 * 60, perAddress: Int = 5, total: Int = 50) {
        self.window = window
        self.perAddress = perAddress
        self.total = total
    }
}
