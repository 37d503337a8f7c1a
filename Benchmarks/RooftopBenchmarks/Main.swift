#if Benchmarks
    import Benchmark

    /// The entry point the benchmark package's build plugin would generate: written out so the
    /// target needs no plugin, which would pull the benchmark package into every build of
    /// Rooftop. `swift package --traits Benchmarks benchmark` runs it.
    @main
    struct BenchmarkRunner: BenchmarkRunnerHooks {
        static func registerBenchmarks() {
            benchmarks()
        }
    }
#else
    /// Without the `Benchmarks` trait this target is an empty program that says how to build it.
    @main
    enum BenchmarkRunner {
        static func main() {
            print("Build with the Benchmarks trait: swift package --traits Benchmarks --disable-sandbox benchmark")
        }
    }
#endif
