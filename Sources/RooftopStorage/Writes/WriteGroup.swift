package import RooftopCore

/// Writes that run in one transaction together with the server's housekeeping around them: the
/// oldest objects past a cap removed, and one-time records exchanged. Opening a session is one
/// trip to the database this way — the session, its audit record, the cap on the user's
/// sessions and the record of the device it came from — instead of six.
package struct WriteGroup: Sendable {
    /// The writes, in order; any failure fails the whole group.
    package var operations: [WriteOperation]
    /// After the writes: objects to remove past a cap.
    package var trims: [Trim]
    /// After the trims: one-time records to replace, reading what each held.
    package var exchanges: [OneTimeExchange]

    /// A group of `operations`, with `trims` and `exchanges` after them.
    package init(_ operations: [WriteOperation], trims: [Trim] = [], exchanges: [OneTimeExchange] = []) {
        self.operations = operations
        self.trims = trims
        self.exchanges = exchanges
    }

    /// The objects of `className` matching `query`, newest first, past the first `keeping`: at most
    /// `limit` of them are deleted (with the server's access, relations included). One that is
    /// gone already (another transaction deleted it) is skipped, not a failure.
    package struct Trim: Sendable {
        /// The class trimmed.
        package var className: ClassName
        /// Which objects count towards the cap.
        package var query: QueryNode
        /// How many of the newest stay.
        package var keeping: Int
        /// The most deleted at once, so one write never grows without bound.
        package var limit: Int

        /// Keeps the newest `keeping` of `className` matching `query`; deletes at most `limit` more.
        package init(_ className: ClassName, _ query: QueryNode, keeping: Int, limit: Int = 100) {
            self.className = className
            self.query = query
            self.keeping = keeping
            self.limit = limit
        }

        /// The read that finds what goes: newest first (ties by id), past the ones kept.
        package var request: FindRequest {
            var options = FindOptions()
            options.order = [
                SortKey(path: FieldPath(field: .createdAt), descending: true), SortKey(path: FieldPath(field: .objectId), descending: true),
            ]
            options.skip = max(0, keeping)
            options.limit = max(0, limit)
            return FindRequest(className: className, query: query, options: options, scope: AccessScope(classes: [className: .master]))
        }
    }

    /// Stores `value` under `key` until `expiresAt` (replacing what was there) and reports what
    /// the key held, if it had not expired at `now` (all in ms since 1970).
    package struct OneTimeExchange: Sendable {
        /// The record's key (a digest).
        package var key: String
        /// The new value.
        package var value: String
        /// When the new value expires.
        package var expiresAt: Int64
        /// Now, to tell an expired previous value from a live one.
        package var now: Int64

        /// An exchange of the record under `key`.
        package init(key: String, value: String, expiresAt: Int64, now: Int64) {
            self.key = key
            self.value = value
            self.expiresAt = expiresAt
            self.now = now
        }
    }
}

/// What a `WriteGroup` did.
package struct WriteGroupOutcome: Sendable, Equatable {
    /// One outcome per operation, in order.
    package var outcomes: [WriteOutcome]
    /// Per trim, the ids it deleted.
    package var trimmed: [[String]]
    /// Per exchange, the live value the key held before (nil: none, or expired).
    package var previous: [String?]

    /// The outcome of a group.
    package init(outcomes: [WriteOutcome], trimmed: [[String]] = [], previous: [String?] = []) {
        self.outcomes = outcomes
        self.trimmed = trimmed
        self.previous = previous
    }
}
