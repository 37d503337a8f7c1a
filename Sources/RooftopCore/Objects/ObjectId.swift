/// Random object identifiers.
public enum ObjectId {
    private static let alphabet: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A new random id of `length` characters from `[A-Za-z0-9]`, drawn from the system CSPRNG.
    public static func generate(length: Int = 10) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<max(1, length)).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] })
    }

    /// Whether `text` could be an object id: 1 to 64 characters of `[A-Za-z0-9_-]`.
    ///
    /// Used to reject path segments early; stored ids are compared with bound parameters anyway.
    public static func isPlausible(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
    }
}
