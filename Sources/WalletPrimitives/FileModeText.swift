/// Permission bits as `chmod` takes them and `ls` users read them: four octal digits (`0640`).
public enum FileModeText {
    public static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
