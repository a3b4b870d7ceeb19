def allocate_weights(storage):
    return storage.file_backed_view()
