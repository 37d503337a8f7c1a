public import Foundation

/// The completion-handler and blocking forms of `RTObject`'s calls.
extension RTObject {
    /// `save()`, blocking the calling thread (never call it on an app's main thread).
    @available(*, noasync, message: "use the async save()")
    public func save() throws { try Callback.wait { try await self.save() } }

    /// `save()` in the background; `block` gets whether it succeeded.
    public func saveInBackground(block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.save() }
    }

    /// `delete()`, blocking.
    @available(*, noasync, message: "use the async delete()")
    public func delete() throws { try Callback.wait { try await self.delete() } }

    /// `delete()` in the background.
    public func deleteInBackground(block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.delete() }
    }

    /// `fetch()` in the background.
    public func fetchInBackground(block: (@Sendable (RTObject?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.fetch() as RTObject }
    }

    /// `refresh()` in the background.
    public func refreshInBackground(block: (@Sendable (RTObject?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.fetch() as RTObject }
    }

    /// `saveAll(_:)` in the background.
    public static func saveAllInBackground(_ objects: [RTObject], block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await saveAll(objects) }
    }
}
