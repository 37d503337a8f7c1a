/// A file's bytes as they arrive, chunk by chunk: an upload's body, or a test's bytes.
///
/// A concrete type rather than a generic sequence, so a `FileStore` existential can take it; it
/// pulls from whatever it wraps one chunk at a time, so a large body never sits in memory.
package struct ByteChunks: AsyncSequence {
    /// One chunk of bytes.
    package typealias Element = [UInt8]

    private let produce: () async throws -> [UInt8]?

    /// Chunks from `produce`, called until it returns `nil` (the end) or throws (the body broke).
    package init(_ produce: @escaping () async throws -> [UInt8]?) {
        self.produce = produce
    }

    /// The chunks of `sequence`, in order.
    package init<Wrapped: AsyncSequence>(_ sequence: Wrapped) where Wrapped.Element == [UInt8] {
        let box = IteratorBox(sequence.makeAsyncIterator())
        self.produce = { try await box.next() }
    }

    /// The chunks of an in-memory array (tests, small files).
    package init(_ chunks: [[UInt8]]) {
        let box = IteratorBox(chunks.makeIterator())
        self.produce = { box.nextSync() }
    }

    /// Iterates the chunks.
    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(produce: produce) }

    /// The iterator.
    package struct AsyncIterator: AsyncIteratorProtocol {
        let produce: () async throws -> [UInt8]?

        /// The next chunk; empty chunks are skipped.
        package mutating func next() async throws -> [UInt8]? {
            while let chunk = try await produce() {
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }

    /// These chunks with `prefix` in front (bytes already read to look at a file's start).
    package func prefixed(by prefix: [UInt8]) -> ByteChunks {
        var pending: [UInt8]? = prefix.isEmpty ? nil : prefix
        let rest = produce
        return ByteChunks {
            if let first = pending {
                pending = nil
                return first
            }
            return try await rest()
        }
    }
}

/// Holds an iterator so a closure can advance it.
private final class IteratorBox<Iterator> {
    var iterator: Iterator
    init(_ iterator: Iterator) { self.iterator = iterator }
}

extension IteratorBox where Iterator: AsyncIteratorProtocol, Iterator.Element == [UInt8] {
    func next() async throws -> [UInt8]? { try await iterator.next() }
}

extension IteratorBox where Iterator: IteratorProtocol, Iterator.Element == [UInt8] {
    func nextSync() -> [UInt8]? { iterator.next() }
}

extension ByteChunks {
    /// Reads chunks until at least `count` bytes (or the end) arrived and returns them; iterating
    /// these chunks afterwards goes on after them (the chunks are read once, in order).
    package func read(atLeast count: Int) async throws -> [UInt8] {
        var out: [UInt8] = []
        var iterator = makeAsyncIterator()
        while out.count < count, let chunk = try await iterator.next() { out.append(contentsOf: chunk) }
        return out
    }
}
