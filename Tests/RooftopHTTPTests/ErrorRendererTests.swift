import HTTPTypes
import Logging
import NIOHTTP1
import RooftopTesting
import Synchronization
import Testing

@testable import RooftopHTTP

/// What the one error renderer logs: a client's broken request is not a fault of the server's.
@Suite struct ErrorRendererTests {
    @Test func aClientHangingUpMidBodyIsAClientErrorLoggedAtInfo() {
        let log = CapturedLog()
        let failure = ErrorRenderer.failure(HTTPParserError.invalidEOFState, logger: log.logger)
        #expect(failure.status == .badRequest)
        #expect(failure.code == 107)
        #expect(log.levels == [.info])
    }

    @Test func anUnknownFailureIsAnInternalErrorLoggedAtError() {
        struct Surprise: Error {}
        let log = CapturedLog()
        let failure = ErrorRenderer.failure(Surprise(), logger: log.logger)
        #expect(failure.status == .internalServerError)
        #expect(failure.code == 1)
        #expect(log.levels == [.error])
    }
}
