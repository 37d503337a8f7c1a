import Foundation
import RooftopCore

/// A change to one field not yet saved: what `save()` sends as the field's value or `__op`.
enum PendingOperation: @unchecked Sendable {
    case set(Any)
    case delete
    case increment(Double)
    case add([Any])
    case addUnique([Any])
    case remove([Any])
    /// Relation changes: objects to add and to remove (sent as one `Batch` op when both).
    case relation(add: [RTObject], remove: [RTObject])

    /// The wire form.
    func json() throws(RTError) -> JSON {
        switch self {
        case .set(let value): return try ValueCoding.encode(value)
        case .delete: return ["__op": "Delete"]
        case .increment(let amount): return ["__op": "Increment", "amount": .number(amount)]
        case .add(let objects): return ["__op": "Add", "objects": try ValueCoding.encode(objects)]
        case .addUnique(let objects): return ["__op": "AddUnique", "objects": try ValueCoding.encode(objects)]
        case .remove(let objects): return ["__op": "Remove", "objects": try ValueCoding.encode(objects)]
        case .relation(let add, let remove):
            let adding: JSON = ["__op": "AddRelation", "objects": try ValueCoding.encode(add)]
            let removing: JSON = ["__op": "RemoveRelation", "objects": try ValueCoding.encode(remove)]
            if remove.isEmpty { return adding }
            if add.isEmpty { return removing }
            return ["__op": "Batch", "ops": [adding, removing]]
        }
    }

    /// The field's value once this operation is applied to `current`, as the server will compute it.
    func apply(to current: Any?) -> Any? {
        switch self {
        case .set(let value): return value
        case .delete: return nil
        case .increment(let amount): return NSNumber(value: Self.number(current) + amount)
        case .add(let objects): return (current as? [Any] ?? []) + objects
        case .addUnique(let objects):
            var result = current as? [Any] ?? []
            for object in objects where !result.contains(where: { Self.same($0, object) }) { result.append(object) }
            return result
        case .remove(let objects): return (current as? [Any] ?? []).filter { element in !objects.contains { Self.same($0, element) } }
        case .relation: return current
        }
    }

    /// This operation followed by `next`, as one operation that has the same effect.
    func then(_ next: PendingOperation, current: Any?) -> PendingOperation {
        switch (self, next) {
        case (.increment(let a), .increment(let b)): return .increment(a + b)
        case (.add(let a), .add(let b)): return .add(a + b)
        case (.addUnique(let a), .addUnique(let b)): return .addUnique(a + b)
        case (.remove(let a), .remove(let b)): return .remove(a + b)
        case (.relation(let addA, let removeA), .relation(let addB, let removeB)):
            func ids(_ objects: [RTObject]) -> Set<ObjectIdentifier> { Set(objects.map(ObjectIdentifier.init)) }
            return .relation(
                add: addA.filter { !ids(removeB).contains(ObjectIdentifier($0)) } + addB,
                remove: removeA.filter { !ids(addB).contains(ObjectIdentifier($0)) } + removeB)
        case (_, .set), (_, .delete): return next
        default:
            // Mixed kinds: send the value both produce.
            guard let value = next.apply(to: apply(to: current)) else { return .delete }
            return .set(value)
        }
    }

    static func number(_ value: Any?) -> Double {
        switch value {
        case let number as NSNumber: return number.doubleValue
        case let number as Int: return Double(number)
        case let number as Double: return number
        default: return 0
        }
    }

    /// Equality as the server sees it: by JSON encoding.
    static func same(_ a: Any, _ b: Any) -> Bool {
        guard let left = try? ValueCoding.encode(a), let right = try? ValueCoding.encode(b) else { return false }
        return left == right
    }
}
