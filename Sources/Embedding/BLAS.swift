import COpenBLAS

/// The one door to OpenBLAS: single-precision matrix products on row-major matrices.
enum BLAS {
    /// Sets OpenBLAS to one thread per call, once per process. The encoder's callers run batches on
    /// several threads at once; OpenBLAS's own pool would then oversubscribe the cores, and on the
    /// small matrices of a batch (tens of rows) its thread hand-off costs more than it saves.
    private static let singleThreaded: Void = openblas_set_num_threads(1)

    /// The name of the kernel OpenBLAS chose for this CPU (for example "SkylakeX" with AVX-512).
    static var kernel: String {
        _ = singleThreaded
        return String(cString: openblas_get_corename())
    }

    /// A product of at most this many rows by a weight matrix is split into blocks of
    /// `columnBlock` weight rows. OpenBLAS (0.3.21, SkylakeX kernel) multiplies such small blocks
    /// with a kernel that packs neither matrix, where a whole product of few rows (a query's dozen
    /// tokens) spends more time packing the weights than multiplying. Measured on 12 and 17 rows by
    /// each weight shape: 1.4 to 1.9 times faster; from 24 rows on, no gain or a loss.
    static let fewRows = 20
    static let columnBlock = 32

    /// `c = alpha * a × bᵀ`, with `a` m×k, `b` n×k and `c` m×n, all row-major with the given row
    /// strides (in floats). `b` is a weight matrix stored as PyTorch does, one output per row.
    static func multiplyTransposed(
        m: Int, n: Int, k: Int, alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        _ = singleThreaded
        let block = m <= fewRows ? columnBlock : n
        var start = 0
        while start < n {
            let width = min(block, n - start)
            cblas_sgemm(
                CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(width), Int32(k),
                alpha, a, Int32(lda), b + start * ldb, Int32(ldb), 0, c + start, Int32(ldc))
            start += width
        }
    }

    /// `c = a × b`, with `a` m×k and `b` k×n, row-major with the given row strides (in floats).
    static func multiply(
        m: Int, n: Int, k: Int,
        a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        _ = singleThreaded
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k),
            1, a, Int32(lda), b, Int32(ldb), 0, c, Int32(ldc))
    }
}
