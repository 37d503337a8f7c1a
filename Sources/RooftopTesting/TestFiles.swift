/// A PNG's signature and some bytes: what a profile picture looks like to the type check.
package let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
