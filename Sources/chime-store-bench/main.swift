// Filled in by the store benchmark (see README "Benchmarks").
print("chime-store-bench: not yet written")
