extension Array {
    /// Makes this array equal to `model` in its own storage where it can: emptied (capacity
    /// kept) for an empty model, element by element for one of the same count, else a copy of
    /// `model`. For buffers reset again and again (a track reused for one device after
    /// another), where replacing them would free this storage and share the model's.
    mutating func overwrite(with model: [Element]) {
        if model.isEmpty {
            removeAll(keepingCapacity: true)
        } else if count == model.count {
            for index in model.indices { self[index] = model[index] }
        } else {
            self = model
        }
    }
}
