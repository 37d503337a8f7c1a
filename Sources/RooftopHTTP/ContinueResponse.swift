import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// `Expect: 100-continue`: the client waits for `100 Continue` before it sends the body (curl
/// does for any body over 1 KiB, for about a second). The interim answer goes out only once
/// the request is known to be acceptable — right before its body is read — so a refused one
/// (a wrong key, a declared length over the limit) gets its final answer at once and its body
/// is never sent.
final class ContinueResponse: Sendable {
    private let channel: (any Channel)?
    private let pending: Atomic<Bool>

    /// For a request on `channel` (`nil` where there is no socket) that carries `Expect:
    /// 100-continue`; a request without it has none (`ParseResponder.respond`).
    init(channel: (any Channel)?) {
        self.channel = channel
        pending = Atomic(true)
    }

    /// Sends `100 Continue` if it has not gone out yet.
    func send() async {
        guard let channel, pending.exchange(false, ordering: .relaxed) else { return }
        // Written below Hummingbird's HTTP codecs, straight to the socket: they only carry
        // final answers, and nothing else is written for this request before its body is read.
        try? await channel.eventLoop.submit {
            let encoder = try channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
            encoder.writeAndFlush(NIOAny(ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")), promise: nil)
        }.get()
    }
}
