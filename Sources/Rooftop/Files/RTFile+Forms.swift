public import Foundation

/// The completion-handler forms of `RTFile`'s calls.
extension RTFile {
    /// `save(progress:)` in the background; `block` gets whether it succeeded, `progress` the
    /// fraction sent (Parse's `saveInBackgroundWithBlock:progressBlock:`).
    public func saveInBackground(
        block: (@Sendable (Bool, NSError?) -> Void)? = nil, progress: (@Sendable (Double) -> Void)? = nil
    ) {
        Callback.deliverSuccess(block) { try await self.save(progress: progress) }
    }

    /// `getData()` in the background.
    public func getDataInBackground(block: (@Sendable (Data?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.getData() }
    }
}
