/// The element-wise steps of the encoder: layer norm, GELU and softmax.
///
/// `exp` and `erf` are polynomial approximations good to about 1 ulp of fp32, written as plain
/// scalar code (multiplies, adds, one division, min/max and integer bit operations) that LLVM
/// vectorises in the loops that call them: the C library's scalar calls, and Swift's generic SIMD
/// rounding and conversions, each cost more than the matrix products they follow.
enum VectorMath {
    typealias Lanes = SIMD16<Float>
    static let width = Lanes.scalarCount

    /// eˣ: Cody–Waite range reduction to r in [-ln2/2, ln2/2], a degree-6 polynomial, then 2ⁿ put
    /// in the exponent bits (the constants of Cephes `expf`). Inputs below -87 give about 1e-38.
    @inline(__always)
    static func exp(_ x: Float) -> Float {
        let x = Swift.min(Swift.max(x, -87), 88)
        // Adding 1.5 × 2²³ rounds to an integer held in the low mantissa bits (no rint call).
        let shifter: Float = 12_582_912
        let t = x * 1.442_695_04 + shifter
        let n = t - shifter
        var r = x - n * 0.693_359_375
        r -= n * -2.121_944_4e-4
        var p: Float = 1.987_569_15e-4
        p = p * r + 1.398_199_95e-3
        p = p * r + 8.333_451_9e-3
        p = p * r + 4.166_579_59e-2
        p = p * r + 1.666_666_55e-1
        p = p * r + 5.000_000_12e-1
        let y = p * (r * r) + r + 1
        // t's bits are 0x4B400000 + n; adding the bias 127 and shifting leaves (n + 127) << 23 = 2ⁿ.
        return y * Float(bitPattern: (t.bitPattern &+ 127) &<< 23)
    }

    /// erf(x): the rational approximation x·P(x²)/Q(x²) on [-4, 4] used by Eigen and XLA (beyond
    /// ±4, erf is ±1 in fp32).
    @inline(__always)
    static func erf(_ x: Float) -> Float {
        let x = Swift.min(Swift.max(x, -4), 4)
        let x2 = x * x
        var p: Float = x2 * -2.726_142_258_013_06e-10 + 2.770_681_424_959_02e-08
        p = p * x2 - 2.101_024_020_825_08e-06
        p = p * x2 - 5.692_506_394_623_46e-05
        p = p * x2 - 7.349_906_303_268_55e-04
        p = p * x2 - 2.954_599_808_540_25e-03
        p = p * x2 - 1.609_603_332_624_15e-02
        var q: Float = x2 * -1.456_607_184_649_96e-05 - 2.133_740_552_789_05e-04
        q = q * x2 - 1.682_826_974_382_03e-03
        q = q * x2 - 7.373_329_167_204_68e-03
        q = q * x2 - 1.426_473_905_141_89e-02
        return x * p / q
    }

    /// `values[i] = gelu(values[i] + bias[i % columns])` over `rows` rows: BERT's exact GELU,
    /// x·½(1 + erf(x/√2)).
    static func addBiasGELU(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int, bias: UnsafePointer<Float>) {
        for row in 0..<rows {
            let line = values + row * columns
            for j in 0..<columns {
                let x = line[j] + bias[j]
                line[j] = x * 0.5 * (1 + erf(x * 0.707_106_77))
            }
        }
    }

    /// `values[i] += bias[i % columns]` over `rows` rows.
    static func addBias(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int, bias: UnsafePointer<Float>) {
        for row in 0..<rows {
            let line = values + row * columns
            for j in 0..<columns { line[j] += bias[j] }
        }
    }

    /// Each row of `count` floats becomes its softmax.
    static func softmaxRows(_ values: UnsafeMutablePointer<Float>, rows: Int, count: Int) {
        for row in 0..<rows {
            let line = values + row * count
            let largest = maximum(line, count: count)
            for j in 0..<count { line[j] = exp(line[j] - largest) }
            let scale = 1 / sum(line, count: count)
            for j in 0..<count { line[j] *= scale }
        }
    }

    /// The largest of `count` floats. Written `v > m ? v : m`, which x86 does in one `maxss`/`maxps`;
    /// `Swift.max` (`y >= x ? y : x`) compiles to a compare and three bit operations per element.
    static func maximum(_ values: UnsafePointer<Float>, count: Int) -> Float {
        var largest = -Float.infinity
        for j in 0..<count {
            let v = values[j]
            largest = v > largest ? v : largest
        }
        return largest
    }

    /// The sum of `count` floats, in 16 lanes (a single running sum would wait on each add).
    static func sum(_ values: UnsafePointer<Float>, count: Int) -> Float {
        let raw = UnsafeRawPointer(values)
        var lanes = Lanes()
        var i = 0
        while i + width <= count {
            lanes += raw.loadUnaligned(fromByteOffset: i * 4, as: Lanes.self)
            i += width
        }
        var total = lanes.sum()
        while i < count {
            total += values[i]
            i += 1
        }
        return total
    }

    /// `residual = layerNorm(projected + bias + residual)` row by row, each row `columns` wide (a
    /// multiple of 16): the step after each sublayer of a post-norm transformer.
    static func addBiasResidualLayerNorm(
        _ projected: UnsafePointer<Float>, bias: UnsafePointer<Float>, residual: UnsafeMutablePointer<Float>,
        rows: Int, columns: Int, weight: UnsafePointer<Float>, shift: UnsafePointer<Float>, epsilon: Float
    ) {
        precondition(columns % width == 0)
        for row in 0..<rows {
            let line = residual + row * columns
            let input = projected + row * columns
            for j in 0..<columns { line[j] += input[j] + bias[j] }
            layerNorm(line, columns: columns, weight: weight, shift: shift, epsilon: epsilon)
        }
    }

    /// One row normalised to mean 0 and variance 1 (two passes, as PyTorch), then scaled and shifted.
    static func layerNorm(
        _ line: UnsafeMutablePointer<Float>, columns: Int, weight: UnsafePointer<Float>, shift: UnsafePointer<Float>, epsilon: Float
    ) {
        let raw = UnsafeMutableRawPointer(line)
        let w = UnsafeRawPointer(weight)
        let s = UnsafeRawPointer(shift)
        var sum = Lanes()
        for i in stride(from: 0, to: columns, by: width) { sum += raw.loadUnaligned(fromByteOffset: i * 4, as: Lanes.self) }
        let mean = sum.sum() / Float(columns)
        var squares = Lanes()
        for i in stride(from: 0, to: columns, by: width) {
            let d = raw.loadUnaligned(fromByteOffset: i * 4, as: Lanes.self) - mean
            squares += d * d
        }
        let scale = 1 / (squares.sum() / Float(columns) + epsilon).squareRoot()
        for i in stride(from: 0, to: columns, by: width) {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: Lanes.self)
            let out =
                (v - mean) * scale * w.loadUnaligned(fromByteOffset: i * 4, as: Lanes.self)
                + s.loadUnaligned(fromByteOffset: i * 4, as: Lanes.self)
            raw.storeBytes(of: out, toByteOffset: i * 4, as: Lanes.self)
        }
    }
}
