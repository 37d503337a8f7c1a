import Foundation
import RooftopCore
import RooftopStorage

/// Sessions as devices: what a person needs to recognise a session in their list (the device
/// and app from its installation, the coarse address it was opened from, when it was last
/// used), the current one marked, and "sign out my other devices".
package struct SessionDevices: Sendable {
    /// The server's own reads of installations and writes of `lastUsedAt`.
    let server: AsServer
    /// Where `lastUsedAt` is written, after the answer.
    let background: BackgroundWork
    /// Now, for `lastUsedAt`.
    let clock: any ServerClock
    /// When this node last wrote each session's `lastUsedAt`.
    let sessionUse = SessionUse()

    /// Devices read and touched through `server`, `lastUsedAt` written in `background`.
    init(server: AsServer, background: BackgroundWork, clock: any ServerClock) {
        self.server = server
        self.background = background
        self.clock = clock
    }

    /// How seldom `lastUsedAt` is rewritten for a session in use: at most once per interval per
    /// node, so a busy session costs no write per request.
    static let lastUseInterval: Int64 = 5 * 60 * 1000

    /// The device fields of a new session: from the installation the request named (its
    /// `deviceName`, `deviceType`, `appName`, `appVersion`), the coarse client address, and
    /// `lastUsedAt` (now).
    func fields(installationId: String?, at now: ParseDate, origin: RequestOrigin) async -> [String: JSON] {
        var fields: [String: JSON] = ["lastUsedAt": ["__type": "Date", "iso": .string(now.iso)]]
        if let ip = origin.clientIP { fields["createdAddress"] = .string(Self.coarseAddress(ip)) }
        guard let installationId, let idField = try? FieldName("installationId"),
            let installation = try? await server.find(
                .installation, .field(FieldPath(field: idField), .equals(.string(installationId.lowercased()))), limit: 1
            )
            .first
        else { return fields }
        for key in ["deviceName", "deviceType", "appName", "appVersion"] {
            if case .string(let text)? = installation.fields[key], !text.isEmpty { fields[key] = .string(String(text.prefix(256))) }
        }
        return fields
    }

    /// The network a client address belongs to, not the address: `203.0.113.0/24` for IPv4,
    /// the first 48 bits for IPv6 — enough to recognise "home" or "the office", not a person.
    package static func coarseAddress(_ ip: String) -> String {
        let v4 = ip.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ UInt8($0) != nil }) { return v4.prefix(3).joined(separator: ".") + ".0/24" }
        // IPv6: `::` stands for as many zero groups as make eight.
        let halves = ip.components(separatedBy: "::")
        guard ip.contains(":"), halves.count <= 2 else { return "unknown" }
        let head = halves[0].split(separator: ":").map(String.init)
        let tail = halves.count == 2 ? halves[1].split(separator: ":").map(String.init) : []
        let groups = head + Array(repeating: "0", count: max(0, 8 - head.count - tail.count)) + tail
        guard groups.count == 8, groups.allSatisfy({ UInt16($0, radix: 16) != nil }) else { return "unknown" }
        return groups.prefix(3).map { String(UInt16($0, radix: 16) ?? 0, radix: 16) }.joined(separator: ":") + "::/48"
    }

    /// Records that `sessionId` was used now; rewrites its `lastUsedAt` in the background when
    /// this node last did so (or saw it made) more than `lastUseInterval` ago.
    func touch(_ sessionId: String) {
        let now = clock.now()
        guard sessionUse.claim(sessionId, now: now.millisecondsSince1970, every: Self.lastUseInterval) else { return }
        let server = server
        background.start("session last use") {
            var write = ObjectWrite()
            write.operations = [(FieldPath(field: try FieldName("lastUsedAt")), .set(["__type": "Date", "iso": .string(now.iso)]))]
            try await server.write([AsServer.update(.session, sessionId, at: now, write)])
        }
    }
}

/// When this node last recorded each session's use (for `SessionDevices.touch`).
final class SessionUse: Sendable {
    private let last = LockedValue([String: Int64]())

    /// Whether `sessionId`'s use must be written now; records it if so.
    func claim(_ sessionId: String, now: Int64, every interval: Int64) -> Bool {
        last.withLock { last in
            if let previous = last[sessionId], now - previous < interval { return false }
            // Bounded: entries older than the interval are worth nothing.
            if last.count > 50_000 {
                last = last.filter { now - $0.value < interval }
                // Still full of live sessions: start over (each costs at most one early write)
                // rather than scan them all again, under the lock, on every claim.
                if last.count > 50_000 { last.removeAll(keepingCapacity: true) }
            }
            last[sessionId] = now
            return true
        }
    }

    /// Records a session made now (its `lastUsedAt` was written with it).
    func opened(_ sessionId: String, now: Int64) {
        last.withLock { $0[sessionId] = now }
    }
}
