import Foundation
import LinearAlgebra

/// Fits the log-distance model RSSI = P₀ − n · 10 log₁₀ d (+ shadowing σ) to samples taken at
/// known distances, with standard errors.
///
/// The design matrix has the columns [1, −10 log₁₀ dᵢ]; every fit, plain or reweighted, is a
/// QR least-squares solve (`LAPACK.leastSquares`, dgels) of the √w-scaled system. Standard
/// errors come from σ² (AᵀA)⁻¹ = σ² R⁻¹ R⁻ᵀ for least squares and from Huber's asymptotic
/// sandwich formula for the M-estimators (Huber 1981, §7.6).
///
/// ```swift
/// let result = try PathLossCalibration(method: .robust).fit(samples)
/// print(result.model.measuredPower, result.model.exponent, result.exponentStandardError)
/// ```
/// - Complexity: O(m) per iteration for m samples (at most ``maximumIterations``), plus a
///   sort of the residuals per iteration for the robust scale (O(m log m)).
public struct PathLossCalibration: Sendable, Hashable {
    /// How the samples are weighed.
    public var method: CalibrationMethod
    /// Upper bound on reweighting iterations (robust methods).
    public var maximumIterations: Int
    /// Convergence tolerance on the parameter change, in dB for P₀ and in units of n.
    public var tolerance: Double
    /// Hold the exponent at this value and fit only P₀ and σ (nil: fit n too). With n held,
    /// samples at a single distance suffice (a few static points).
    public var fixedExponent: Double?

    /// A calibration with `method` (default ordinary least squares), optionally with the exponent
    /// held at `fixedExponent`.
    public init(
        method: CalibrationMethod = .leastSquares, maximumIterations: Int = 100, tolerance: Double = 1e-9,
        fixedExponent: Double? = nil
    ) {
        self.method = method
        self.maximumIterations = maximumIterations
        self.tolerance = tolerance
        self.fixedExponent = fixedExponent
    }

    /// Fits every sample together, whatever beacon they name.
    /// - Throws: ``CalibrationError`` for bad input or a fit out of the plausible range.
    public func fit(_ samples: [CalibrationSample]) throws(CalibrationError) -> CalibrationResult {
        try fit(distances: samples.map(\.distance), rssi: samples.map(\.rssi))
    }

    /// Fits RSSI values `rssi` (dBm) observed at `distances` (metres); the arrays pair up by index
    /// and must have the same length.
    /// - Throws: ``CalibrationError`` for bad input (indices in messages are into these arrays)
    ///   or a fit out of the plausible range.
    public func fit(distances: [Double], rssi: [Double]) throws(CalibrationError) -> CalibrationResult {
        guard distances.count == rssi.count else {
            throw .mismatchedCounts(distances: distances.count, rssi: rssi.count)
        }
        let m = distances.count
        if m == 0 { throw .noSamples }
        try validateMethod()
        var x = [Double](repeating: 0, count: m)
        var lo = Double.infinity, hi = -Double.infinity
        for i in 0..<m {
            let d = distances[i]
            guard d.isFinite, d > 0 else { throw .invalidDistance(index: i, value: d) }
            if let rejection = RSSIReading.rejection(of: rssi[i]) {
                throw .invalidRSSI(index: i, rejection: rejection)
            }
            x[i] = -10 * Foundation.log10(d)
            lo = min(lo, d)
            hi = max(hi, d)
        }
        if let exponent = fixedExponent {
            return try fitLevel(x: x, rssi: Array(rssi[0..<m]), exponent: exponent, span: lo...hi)
        }
        if m < 3 { throw .tooFewSamples(count: m, required: 3) }
        if lo == hi { throw .tooFewDistances(distinct: 1) }
        let y = Array(rssi[0..<m])

        var solver = WeightedSolver(x: x, y: y)
        var weights = [Double](repeating: 1, count: m)
        var beta = try solver.solve(weights: weights, span: lo...hi)
        var iterations = 0
        var scale = 0.0
        var inliers = m
        var standardErrors: (p0: Double, n: Double, correlation: Double)

        switch method {
        case .leastSquares:
            let rss = solver.residualSumOfSquares(beta, weights: weights)
            scale = (rss / Double(m - 2)).squareRoot()
            standardErrors = solver.covariance(scaledBy: scale * scale)
        case .huber(let k):
            (beta, scale, iterations) = try huber(&solver, start: beta, threshold: k, span: lo...hi)
            standardErrors = try sandwich(&solver, beta: beta, scale: scale, influence: .huber(k), span: lo...hi)
            inliers = countInliers(solver, beta: beta, scale: scale, threshold: k)
        case .bisquare(let c):
            let start = try huber(&solver, start: beta, threshold: 1.345, span: lo...hi)
            beta = start.beta
            scale = start.scale
            iterations = start.iterations
            for _ in 0..<maximumIterations {
                iterations += 1
                for i in 0..<m {
                    let u = solver.residual(i, beta) / (c * scale)
                    let t = 1 - u * u
                    weights[i] = abs(u) < 1 ? t * t : 0
                }
                // Should the bisquare reject all but one distance (a pathological sample), keep
                // the Huber fit rather than fail.
                guard let next = try? solver.solve(weights: weights, span: lo...hi) else { break }
                defer { beta = next }
                if converged(beta, next) { break }
            }
            standardErrors = try sandwich(&solver, beta: beta, scale: scale, influence: .bisquare(c), span: lo...hi)
            inliers = weights.reduce(0) { $0 + ($1 >= 0.5 ? 1 : 0) }
            // Report σ as the RMS of the residuals the bisquare keeps (|r| < c s, a truncation
            // beyond 4.6 σ that needs no correction): the MAD of a contaminated sample runs high.
            var kept = 0, sum = 0.0
            for i in 0..<m {
                let r = solver.residual(i, beta)
                if abs(r) < c * scale {
                    kept += 1
                    sum += r * r
                }
            }
            if kept > 2 { scale = (sum / Double(kept - 2)).squareRoot() }
        case .trimmed(let fraction):
            let start = try huber(&solver, start: beta, threshold: 1.345, span: lo...hi)
            beta = start.beta
            iterations = start.iterations
            let keep = max(3, Int((Double(m) * (1 - fraction)).rounded(.up)))
            var order = Array(0..<m)
            var previous = [Double]()
            for _ in 0..<maximumIterations {
                iterations += 1
                let residuals = (0..<m).map { abs(solver.residual($0, beta)) }
                order.sort { residuals[$0] < residuals[$1] }
                for i in 0..<m { weights[i] = 0 }
                for i in order[0..<keep] { weights[i] = 1 }
                if weights == previous { break }
                previous = weights
                beta = try solver.solve(weights: weights, span: lo...hi)
            }
            // σ from the kept residuals, corrected for the truncation of a Gaussian at ±c,
            // where c is the (1 − fraction/2) quantile: E[Z² | |Z| < c] = 1 − 2cφ(c)/(1 − α).
            let alpha = 1 - Double(keep) / Double(m)
            let rss = solver.residualSumOfSquares(beta, weights: weights)
            var raw = rss / Double(max(keep - 2, 1))
            if alpha > 0 {
                let c = StandardNormal.quantile(1 - alpha / 2)
                let phi = Foundation.exp(-c * c / 2) / (2 * Double.pi).squareRoot()
                raw /= max(1 - 2 * c * phi / (1 - alpha), 1e-6)
            }
            scale = raw.squareRoot()
            standardErrors = solver.covariance(scaledBy: scale * scale)
            inliers = keep
        }

        // σ no smaller than the floor every reader of the calibration applies.
        let model = PathLossModel(
            measuredPower: beta.p0, exponent: beta.n, sigma: max(scale, PathLossModel.minimumSigma))
        guard CalibrationResult.plausibleMeasuredPower.contains(beta.p0),
            CalibrationResult.plausibleExponent.contains(beta.n)
        else {
            throw .implausibleFit(measuredPower: beta.p0, exponent: beta.n)
        }
        return CalibrationResult(
            model: model,
            measuredPowerStandardError: standardErrors.p0,
            exponentStandardError: standardErrors.n,
            correlation: standardErrors.correlation,
            count: m,
            inlierCount: inliers,
            distanceSpan: lo...hi,
            method: method,
            iterations: iterations)
    }

    // MARK: Robust iterations

    private func validateMethod() throws(CalibrationError) {
        switch method {
        case .leastSquares: return
        case .huber(let k), .bisquare(let k):
            guard k.isFinite, k > 0 else { throw .invalidMethod(method) }
        case .trimmed(let f):
            guard f.isFinite, f >= 0, f < 0.5 else { throw .invalidMethod(method) }
        }
        guard maximumIterations >= 1, tolerance.isFinite, tolerance > 0 else { throw .invalidMethod(method) }
    }

    private func converged(_ a: Parameters, _ b: Parameters) -> Bool {
        abs(a.p0 - b.p0) <= tolerance * (1 + abs(a.p0)) && abs(a.n - b.n) <= tolerance * (1 + abs(a.n))
    }

    /// Huber IRLS with the scale re-estimated by the MAD at every iteration.
    private func huber(
        _ solver: inout WeightedSolver, start: Parameters, threshold k: Double,
        span: ClosedRange<Double>
    ) throws(CalibrationError) -> (beta: Parameters, scale: Double, iterations: Int) {
        let m = solver.count
        var beta = start
        var weights = [Double](repeating: 1, count: m)
        var scale = solver.robustScale(beta)
        var iterations = 0
        for _ in 0..<maximumIterations {
            iterations += 1
            scale = solver.robustScale(beta)
            for i in 0..<m {
                let r = abs(solver.residual(i, beta))
                weights[i] = r <= k * scale ? 1 : k * scale / r
            }
            let next = try solver.solve(weights: weights, span: span)
            defer { beta = next }
            if converged(beta, next) { break }
        }
        return (beta, solver.robustScale(beta), iterations)
    }

    private func countInliers(_ solver: WeightedSolver, beta: Parameters, scale: Double, threshold k: Double) -> Int {
        (0..<solver.count).reduce(0) { $0 + (abs(solver.residual($1, beta)) <= 2 * k * scale ? 1 : 0) }
    }

    enum Influence {
        case huber(Double), bisquare(Double)

        /// ψ(u) and ψ′(u) for the standardised residual u.
        func psi(_ u: Double) -> (value: Double, slope: Double) {
            switch self {
            case .huber(let k):
                return abs(u) <= k ? (u, 1) : (k * (u < 0 ? -1 : 1), 0)
            case .bisquare(let c):
                guard abs(u) < c else { return (0, 0) }
                let t = (u / c) * (u / c)
                return (u * (1 - t) * (1 - t), (1 - t) * (1 - 5 * t))
            }
        }
    }

    /// Huber's (1981, eq. 7.6.5) asymptotic covariance of an M-estimator:
    /// K² · [Σψ²/(m − p)] / [Σψ′/m]² · s² (AᵀA)⁻¹ with K = 1 + (p/m) Var(ψ′)/E[ψ′]².
    private func sandwich(
        _ solver: inout WeightedSolver, beta: Parameters, scale: Double, influence: Influence,
        span: ClosedRange<Double>
    ) throws(CalibrationError) -> (p0: Double, n: Double, correlation: Double) {
        let m = solver.count
        guard scale > 0 else { return solver.covariance(scaledBy: 0) }
        var sumPsi2 = 0.0, sumSlope = 0.0, sumSlope2 = 0.0
        for i in 0..<m {
            let (value, slope) = influence.psi(solver.residual(i, beta) / scale)
            sumPsi2 += value * value
            sumSlope += slope
            sumSlope2 += slope * slope
        }
        let meanSlope = sumSlope / Double(m)
        guard meanSlope > 1e-9 else { return solver.covariance(scaledBy: .infinity) }
        let varSlope = max(sumSlope2 / Double(m) - meanSlope * meanSlope, 0)
        let k = 1 + 2 / Double(m) * varSlope / (meanSlope * meanSlope)
        let factor = k * k * (sumPsi2 / Double(m - 2)) / (meanSlope * meanSlope) * scale * scale
        _ = try solver.solve(weights: [Double](repeating: 1, count: m), span: span)
        return solver.covariance(scaledBy: factor)
    }
}

/// (P₀, n) of a fit.
struct Parameters: Sendable, Hashable {
    var p0: Double
    var n: Double
}

/// Weighted least-squares solves of y = P₀ + n x on a fixed design, with the QR factor of the
/// last solve kept for the covariance.
struct WeightedSolver {
    let x: [Double]
    let y: [Double]
    private var a: Matrix
    private var b: Matrix
    private var workspace = LAPACKWorkspace()

    init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
        self.a = Matrix(rows: x.count, columns: 2)
        self.b = Matrix(rows: x.count, columns: 1)
    }

    var count: Int { x.count }

    @inline(__always)
    func residual(_ i: Int, _ beta: Parameters) -> Double { y[i] - beta.p0 - beta.n * x[i] }

    func residualSumOfSquares(_ beta: Parameters, weights: [Double]) -> Double {
        var sum = 0.0
        for i in 0..<count {
            let r = residual(i, beta)
            sum += weights[i] * r * r
        }
        return sum
    }

    /// 1.4826 × the median absolute residual (residuals of a fit with an intercept are centred).
    /// Falls back to the root-mean-square residual when more than half the residuals vanish.
    func robustScale(_ beta: Parameters) -> Double {
        var magnitudes = (0..<count).map { abs(residual($0, beta)) }
        magnitudes.sort()
        let mid = magnitudes.count / 2
        let median = magnitudes.count % 2 == 1 ? magnitudes[mid] : (magnitudes[mid - 1] + magnitudes[mid]) / 2
        let mad = 1.482_6 * median
        if mad > 1e-9 { return mad }
        let rms = (magnitudes.reduce(0) { $0 + $1 * $1 } / Double(max(count - 2, 1))).squareRoot()
        return max(rms, 1e-9)
    }

    /// Solves min Σ wᵢ (yᵢ − P₀ − n xᵢ)² by QR (dgels) on the √w-scaled rows.
    mutating func solve(weights: [Double], span: ClosedRange<Double>) throws(CalibrationError) -> Parameters {
        a.reshape(rows: count, columns: 2)
        b.reshape(rows: count, columns: 1)
        for i in 0..<count {
            let s = weights[i].squareRoot()
            a[i, 0] = s
            a[i, 1] = s * x[i]
            b[i, 0] = s * y[i]
        }
        do {
            try LAPACK.leastSquares(&a, &b, workspace: &workspace)
        } catch {
            if case .singular = error {
                throw .distancesTooClose(minimum: span.lowerBound, maximum: span.upperBound)
            }
            throw .numerical(error)
        }
        return Parameters(p0: b[0, 0], n: b[1, 0])
    }

    /// Standard errors and correlation of (P₀, n) from `variance` · R⁻¹R⁻ᵀ, R the 2×2
    /// triangular factor of the last solve.
    func covariance(scaledBy variance: Double) -> (p0: Double, n: Double, correlation: Double) {
        // R = [r11 r12; 0 r22]; R⁻¹ = [1/r11, −r12/(r11 r22); 0, 1/r22].
        let r11 = a[0, 0], r12 = a[0, 1], r22 = a[1, 1]
        let i11 = 1 / r11, i12 = -r12 / (r11 * r22), i22 = 1 / r22
        // (AᵀA)⁻¹ = R⁻¹ R⁻ᵀ.
        let c11 = i11 * i11 + i12 * i12
        let c12 = i12 * i22
        let c22 = i22 * i22
        guard variance.isFinite else { return (.infinity, .infinity, 0) }
        let se0 = (variance * c11).squareRoot(), se1 = (variance * c22).squareRoot()
        let correlation = c11 > 0 && c22 > 0 ? max(-1, min(1, c12 / (c11 * c22).squareRoot())) : 0
        return (se0, se1, correlation)
    }
}
