/// Runs work on many inputs with a bounded number in flight, handing each result over in input
/// order as soon as every earlier one is done (so output streams, and stays in argument order).
enum Concurrently {
    static func forEach<Input: Sendable, Output: Sendable>(
        _ inputs: [Input],
        width: Int,
        work: @escaping @Sendable (Input) async -> Output,
        handle: (Int, Input, Output) async -> Void
    ) async {
        await withTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            var pending: [Int: Output] = [:]
            var handled = 0
            func submit() {
                let index = next
                let input = inputs[index]
                next += 1
                group.addTask { (index, await work(input)) }
            }
            while next < min(max(1, width), inputs.count) { submit() }
            for await (index, output) in group {
                pending[index] = output
                while let ready = pending.removeValue(forKey: handled) {
                    await handle(handled, inputs[handled], ready)
                    handled += 1
                }
                if next < inputs.count { submit() }
            }
        }
    }
}
