import Foundation
import RooftopCore

/// A many-to-many link from one object's field to objects of another class (a role's `users`
/// and `roles`). Changes are saved with the parent object.
public struct RTRelation<T: RTObject>: Sendable {
    /// The object the relation belongs to.
    public let parent: RTObject
    /// The field of the relation.
    public let key: String
    /// The class of the related objects.
    public let targetClassName: String

    /// Adds `object` to the relation (at the parent's next save).
    public func add(_ object: T) { parent.record(.relation(add: [object], remove: []), forKey: key) }

    /// Removes `object` from the relation (at the parent's next save).
    public func remove(_ object: T) { parent.record(.relation(add: [], remove: [object]), forKey: key) }

    /// A query for the related objects; the parent must have been saved.
    public func query() -> RTQuery<T> {
        let query = RTQuery<T>(typedClassName: targetClassName)
        query.relatedTo = (parent, key)
        return query
    }
}
