import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// Hummingbird's HTTP/1 channel with two deadlines its idle timer cannot give: a request head
/// must be complete within `header` of its first byte, and a body within `body` of its head.
///
/// The idle timer only sees decoded parts, so a body sent a byte at a time but steadily counts
/// as progress for ever (a slow-body attack), and a kept-alive connection that waits between
/// requests must not be confused with one sending its head slowly. The header clock therefore
/// starts at the first raw byte of a request, which only a handler in front of the HTTP
/// decoder sees; the body clock starts at the decoded head.
struct DeadlineHTTP1Channel: HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let header: TimeAmount?

    /// Hummingbird's channel for `responder`, closing idle connections after `idle`.
    init(responder: @escaping Responder, idle: TimeAmount?, header: TimeAmount?, body: TimeAmount?, logger: Logger) {
        // The part timer sits after the decoder (Hummingbird's place for extra handlers) and
        // finds the start timer, added in front of the decoder by `setup`, when it is added.
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestPartTimer(body: body, logger: logger)], idleTimeout: idle)
        self.inner = HTTP1Channel(responder: responder, configuration: configuration)
        self.header = header
    }

    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let header = header
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestStartTimer(header: header, logger: logger), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        // The connection's requests run on its own event loop (see EventLoopTaskExecutor).
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await inner.handle(value: value, logger: logger)
        }
    }
}

/// Where a connection is in its current request, as both deadline handlers see it.
enum RequestPhase {
    /// Between requests: waiting is the idle timer's business.
    case waiting
    /// Bytes of a head have arrived; the head is not complete.
    case head
    /// The head is complete; the body is still arriving.
    case body
    /// The request is read; the answer is being written.
    case answering
}

/// In front of the HTTP decoder: starts the header clock at a request's first byte.
final class RequestStartTimer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let header: TimeAmount?
    private let logger: Logger
    var phase = RequestPhase.waiting
    private var deadline: Scheduled<Void>?

    init(header: TimeAmount?, logger: Logger) {
        self.header = header
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if phase == .waiting {
            phase = .head
            if let header {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                deadline = context.eventLoop.scheduleTask(in: header) { [logger] in
                    logger.info("closing a connection whose request head did not arrive in time")
                    loopBound.value.close(promise: nil)
                }
            }
        }
        context.fireChannelRead(data)
    }

    /// The head is complete: its clock stops.
    func headArrived() {
        deadline?.cancel()
        deadline = nil
        phase = .body
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: stops the header clock at the head, runs the body clock until the
/// request's end, and marks the connection as waiting again once the answer is written.
final class RequestPartTimer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var start: RequestStartTimer?
    private let body: TimeAmount?
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    /// The answer ended before the request did (an early 404 or 413 whose body Hummingbird
    /// drains afterwards): the request's end then makes the connection wait again.
    private var answeredEarly = false

    init(body: TimeAmount?, logger: Logger) {
        self.body = body
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        start = try? context.pipeline.syncOperations.handler(type: RequestStartTimer.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            answeredEarly = false
            start?.headArrived()
            if let body {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                deadline = context.eventLoop.scheduleTask(in: body) { [logger] in
                    logger.info("closing a connection whose request body did not arrive in time")
                    loopBound.value.close(promise: nil)
                }
            }
        case .body: break
        case .end:
            stopBodyClock()
            start?.phase = answeredEarly ? .waiting : .answering
            answeredEarly = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An answer written before its body was read (a 413, say) leaves the body clock running:
        // Hummingbird still drains that body, and a client that never sends it is closed.
        if case .end = unwrapOutboundIn(data), let start {
            if start.phase == .answering { start.phase = .waiting } else if start.phase == .body { answeredEarly = true }
        }
        context.write(data, promise: promise)
    }

    private func stopBodyClock() {
        deadline?.cancel()
        deadline = nil
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopBodyClock()
        start = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopBodyClock()
        context.fireChannelInactive()
    }
}
