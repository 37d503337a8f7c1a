import Foundation
import RooftopCore

extension RTClient {
    /// Sends `request` with the session of `user` (none when nil, or while an automatic user is
    /// not created yet). A user without a session fails with 209 before anything is sent; a 209
    /// from the server logs that user out on this device.
    func send(_ request: APIRequest, as user: RTUser?) async throws(RTError) -> JSON {
        var request = request
        let token = try sessionToken(of: user)
        request.sessionToken = token
        do {
            return try await transport.send(request)
        } catch {
            if error.code == .invalidSessionToken, let user, let token { users.sessionEnded(for: user, token: token) }
            throw error
        }
    }

    /// The session `user`'s requests carry: none for no user or an automatic user not created
    /// yet; 209 for a user logged out on this device.
    func sessionToken(of user: RTUser?) throws(RTError) -> String? {
        guard let user, user.isDeviceAccount, !user.isLazy else { return nil }
        guard let session = users.token(of: user) else {
            throw RTError(.invalidSessionToken, "\(user.username ?? "This user") is logged out on this device: log in again.")
        }
        return session
    }
}
