extension PositioningEngine {
    /// How the engine turns fixes into reports.
    public enum TrackingMode: String, Sendable, Hashable, CaseIterable {
        /// A Kalman tracker fuses every RSSI sample at its own time (the default).
        case kalman
        /// No tracker: each epoch's maximum-likelihood fix is reported on its own.
        case none
    }

    /// The engine's settings. Every value has a default suited to a person walking with a phone.
    public struct Configuration: Sendable, Hashable, Codable {
        /// Length of an epoch, seconds: one report per device and epoch in which it heard a
        /// beacon. Default 1 s (what ranging delivers on iOS).
        public var epoch: Double
        /// How far a sample may arrive behind a later one of the same device and still be used,
        /// seconds. An epoch is closed only when a sample at least this much past its end arrives
        /// (or at ``PositioningEngine/finish()``), so reports are delayed by this much. Samples
        /// later than that are counted in ``Statistics/late`` and dropped. Default 0 (live use,
        /// no delay); batch processing uses 1 s.
        public var reorderDelay: Double
        /// Kalman tracking or raw fixes. Default ``TrackingMode/kalman``.
        public var tracking: TrackingMode
        /// The tracker's tuning (its receiver height and outline are set by the engine from the
        /// plan). Default: `TrackerConfiguration`'s walking defaults.
        public var tracker: TrackerConfiguration
        /// The solver's settings for each epoch's fix (its dimension, outline and floor
        /// elevations are set by the engine from the plan). Default: maximum likelihood without
        /// the per-fix outlier test (``engineSolver``); when the device offset is estimated and
        /// `commonOffsetSigma` is nil, the engine sets it to the offset's prior σ, so that each
        /// fix estimates the offset with the position.
        public var solver: TrilaterationSolver.Configuration
        /// The floor rule. Default: `FloorEstimator.Configuration`'s defaults.
        public var floor: FloorEstimator.Configuration
        /// Shadowing standard deviation of a single RSSI sample, dB, used for every beacon when
        /// set; otherwise each beacon's calibrated σ (or `PathLossModel.defaultSigma`).
        /// Calibrations made from long static averages understate a walking phone's scatter;
        /// set this (for example 6 dB) for them.
        public var sampleSigma: Double?
        /// Keep positions inside the floor's outline when the plan has one. Default true.
        public var constrainToOutline: Bool
        /// Record what the RTS smoother needs (memory grows with the track). Default false.
        public var recordsHistory: Bool
        /// Set apart a beacon whose readings keep disagreeing with the tracked positions over
        /// many epochs (moved, spoofed, or behind something the plan does not know), and take
        /// it back when it agrees again. Only beacons whose path-loss model was measured (given
        /// in the engine's calibration, or learned from traffic) are set apart: on the plan's
        /// generic values a misfit cannot be told from another transmit power. Default true. See
        /// ``PositioningEngine/inconsistentBeacons``.
        public var excludesInconsistentBeacons: Bool
        /// How the receiving device's RSSI offset is handled (see `DeviceOffsetModel`): nil
        /// (the default) estimates it per device, starting from 0 dB with a standard deviation of
        /// ``calibratedOffsetSigma`` when calibrated path-loss models were given to the engine and
        /// ``uncalibratedOffsetSigma`` otherwise. `DeviceOffsetModel/fixed(_:)` sets a known
        /// offset and turns the estimate off.
        public var deviceOffset: DeviceOffsetModel?
        /// Time-correlated shadowing: each beacon's bias state (see `ShadowingModel`);
        /// `ShadowingModel/independent` treats every sample's error as independent.
        public var shadowing: ShadowingModel
        /// Learn every beacon's path-loss model from the traffic while positioning (see
        /// ``OnlineLearning``); nil (the default) keeps the models fixed. It learns from tracked
        /// epochs and needs ``TrackingMode/kalman`` (``validate()`` refuses it with `.none`).
        public var learning: OnlineLearning?

        /// The engine's default solver settings: maximum likelihood with a centroid prior of
        /// scale 1 (`TrilaterationSolver.Configuration.centroidPriorScale`) and without the
        /// per-fix χ² outlier test. The test assumes the models are right; where they are not
        /// (generic plan values, a site the log-distance model fits poorly) every beacon misfits,
        /// and rejecting two of them per fix cost accuracy on every shared real data set
        /// (Docs/Evidence/Accuracy.md); a beacon that keeps misfitting is set apart across epochs instead
        /// (``excludesInconsistentBeacons``). The prior keeps a fix near the weighted centroid
        /// of the three nearest beacons unless the readings say otherwise (Docs/Reference/Trilateration.md).
        /// A fix its readings cannot determine (fewer than four beacons) is, where it is
        /// reported (a device without a track, or tracking off), the detection posterior
        /// (`TrilaterationSolver.Fallback.detectionPosterior`): the beacons not heard count as
        /// evidence under a detection curve the engine learns from its own determined fixes as
        /// it goes (``learnsDetection``); until it has one, and on traffic that never reports a
        /// fallback, such a fix is the weighted centroid. Elsewhere the weighted centroid
        /// stands in (it costs nothing).
        public static let engineSolver: TrilaterationSolver.Configuration = {
            var solver = TrilaterationSolver.Configuration(rejectsOutliers: false)
            solver.centroidPriorScale = 1
            solver.fallback = .detectionPosterior
            return solver
        }()

        /// Prior standard deviation of the device offset when the engine was given calibrated
        /// path-loss models, dB: 3 (calibrations are usually made with the phones that use them,
        /// yet phones of one model still differ by a few dB).
        public static let calibratedOffsetSigma = 3.0
        /// Prior standard deviation of the device offset on an uncalibrated plan, dB: 10 (phone
        /// models differ by up to about ±10 dB, and generic measured-power values are often off by
        /// as much).
        public static let uncalibratedOffsetSigma = 10.0
        /// Finish and forget a device not heard for this many seconds of input time (the
        /// latest sample time pushed for any device): its last epoch is reported and its state
        /// freed, so memory follows the devices active at once. A device heard again later
        /// starts a new track. Default nil: devices are kept until ``PositioningEngine/finish()``.
        /// Ignored while ``recordsHistory`` is on (the smoother needs every track).
        public var idleRelease: Double? = nil
        /// Keep small every device not heard for this many seconds of input time (the latest
        /// sample time pushed for any device): a device that has closed no epoch yet (a phone
        /// heard once or for less than an epoch) sleeps as its samples alone, about 100 bytes
        /// instead of about 2 KB, and a tracked device frees the scratch space of its epoch
        /// update (four n × n matrices per tracker member). Its next sample, the end
        /// (``PositioningEngine/finish()``) or idle release restores it exactly, so **no report
        /// changes** for any value: this only trades memory for the cost of restoring (one
        /// allocation per buffer). Default 10 s,
        /// ten epochs of the default length, so that a phone heard every few seconds is not put
        /// away and restored over and over; nil: never.
        public var compactAfter: Double? = 10
        /// Fixed-lag smoothing, seconds (Kalman tracking only): each report for time t is held
        /// until the device's input has reached t + lag, and refined meanwhile by every later
        /// epoch (a Rauch–Tung–Striebel pass over the steps of the window, the same pass as
        /// ``PositioningEngine/smooth(_:)``; such reports have source
        /// ``PositionReport/Source/smoothed``). Memory and work per device stay bounded by the
        /// window's epochs. Default 0: reports as soon as their epoch closes, unchanged (the
        /// causal output). Zones are decided on the refined positions.
        public var lag: Double = 0
        /// Record, for every determined fix, which beacons of its level were heard, their
        /// distances from the fix and the fix's offset (``Statistics/detections``, a bounded
        /// sample), to learn the detection curve of
        /// `TrilaterationSolver.Fallback.detectionPosterior` from (`DetectionScans.fit()`).
        /// Default false (nothing is recorded, at no cost).
        public var recordsDetections = false
        /// Widen each tracked report's covariance by the models' misfit: a Schmidt consider
        /// term σ_b² F⁻¹ (Σ w² H Hᵀ) F⁻¹ for per-beacon biases whose spread σ_b each device
        /// estimates from its own residuals (see Docs/Reference/Tracking.md, "The radius and the models'
        /// misfit"). It changes the reported covariance (and so `accuracy`, and the zone rule,
        /// which weighs a position by it), never a position or a learned model, and holds for
        /// causal, lagged and smoothed reports alike. Default true;
        /// false reports the tracker's covariance alone, which assumes the models are right.
        public var considersModelMisfit = true

        /// How uncertain each beacon's model is (a calibration's or learning's standard errors of
        /// P₀ and n), considered in the reported radius with ``considersModelMisfit``: a beacon
        /// whose prediction at the device's distance d has variance s²(d)
        /// (`PathLossUncertainty.variance(atDistance:)`) adds F⁻¹ (w² s² H Hᵀ) F⁻¹ to the
        /// misfit's consider term, the position error that a bias of that size would cause.
        /// `indoorpos locate` fills it from the calibration it positions with (the file's, or the
        /// one `--self-calibrate` learns). Beacons not named add nothing (the plan's values: the
        /// misfit seen in the residuals stands for their error). Default empty.
        public var modelUncertainty: [BeaconIdentity: PathLossUncertainty] = [:]

        /// The variance of the shadowing that belongs to a place, dB², considered in the radius
        /// with ``considersModelMisfit``: each beacon's bias variance is at least σ_f² g(vτ/d_c),
        /// what of a place's error a phone moving at the tracked speed v still carries over the
        /// shadowing's correlation time τ (d_c = 2 m; g as `PlaceShadowing` gives it: 1 for a
        /// still phone, about 2 d_c/(vτ) for a fast one). Models learned from traffic take most
        /// of a place's error up, so the residuals at the tracked position no longer show it;
        /// the learning measures it (``TrafficCalibration/Result/placeShadowingVariance``) and
        /// `indoorpos locate` fills this from the calibration it positions with. Default 0 (the
        /// residuals alone).
        public var placeShadowingVariance = 0.0

        /// The loss through a wall that the plan leaves without one (no `attenuation` on the
        /// wall and no `wallAttenuation` in its defaults), dB: what self-calibration learned
        /// (``TrafficCalibration/Result/wallAttenuation``). Nil: the standard
        /// `PlanDefaults.standardWallAttenuation` (5 dB). A value the plan gives always wins.
        public var wallAttenuation: Double?

        /// Keep every tracked step and report from crossing the plan's walls: a step that would
        /// cross one is put in the door beside it (a gap between walls) or, where that does not
        /// lead round, in the first door of the shortest way round (`FloorWalls.firstDoor`); where
        /// no way leads there, it stops short of the wall and slides along it. Default true; a
        /// plan without walls is not affected. Measured on the simulated store of
        /// `Scripts/Research/rooms-stress.py` (learned models, seeds 1–3): steps through a wall
        /// 74 / 75 / 110 of 2,396 without, none with; RMSE 3.18 / 3.23 / 3.31 m against 3.19 /
        /// 3.25 / 3.65 m with the walls left out of the plan (Docs/Reference/Tracking.md, "Walls").
        public var stopsAtWalls = true

        /// Whether the engine learns the detection curve of its fallbacks from its own traffic as
        /// it goes: the solver's fallback is `TrilaterationSolver.Fallback.detectionPosterior`
        /// and no curve was given (`solver.detection` nil). The engine then records detections
        /// (as ``recordsDetections``) and fits the curve (`DetectionScans.fit()`) each time the
        /// determined fixes recorded reach ``detectionFitSchedule``'s next count, with the fixes'
        /// a-posteriori variance factor for the fallbacks' readings; fallbacks before the first
        /// curve are weighted centroids. Every fit uses only fixes made before it: causal. (An
        /// engine whose floors have no outline to keep positions in, or with
        /// ``constrainToOutline`` off, has no posterior to use a curve in, and learns none.)
        public var learnsDetection: Bool {
            solver.fallback == .detectionPosterior && solver.detection == nil
        }

        /// The determined-fix counts at which a detection curve learned as the input goes is
        /// fitted: the first at 32 (`DetectionScans.minimumScans` is 20), then at every fourfold
        /// (128, 512, 2,048, …), so that n fixes cost about log₄(n / 8) fits, and the last fit
        /// used at least a quarter of the fixes made before it.
        public static let detectionFitSchedule = (first: 32, growth: 4)

        /// Settings with the documented defaults.
        public init(
            epoch: Double = 1, reorderDelay: Double = 0, tracking: TrackingMode = .kalman,
            tracker: TrackerConfiguration = TrackerConfiguration(),
            solver: TrilaterationSolver.Configuration = Configuration.engineSolver,
            floor: FloorEstimator.Configuration = FloorEstimator.Configuration(),
            sampleSigma: Double? = nil, constrainToOutline: Bool = true,
            recordsHistory: Bool = false, excludesInconsistentBeacons: Bool = true,
            deviceOffset: DeviceOffsetModel? = nil, shadowing: ShadowingModel = ShadowingModel()
        ) {
            self.epoch = epoch
            self.reorderDelay = reorderDelay
            self.tracking = tracking
            self.tracker = tracker
            self.solver = solver
            self.floor = floor
            self.sampleSigma = sampleSigma
            self.constrainToOutline = constrainToOutline
            self.recordsHistory = recordsHistory
            self.excludesInconsistentBeacons = excludesInconsistentBeacons
            self.deviceOffset = deviceOffset
            self.shadowing = shadowing
        }

        /// Throws ``PositioningError/invalidConfiguration(_:)`` naming the first bad value (what
        /// ``PositioningEngine/init(plan:calibration:configuration:)`` checks).
        public func validate() throws(PositioningError) {
            guard epoch.isFinite, epoch >= 0.01, epoch <= 3600 else {
                throw .invalidConfiguration("epoch must be between 0.01 and 3600 s, got \(epoch)")
            }
            guard reorderDelay.isFinite, reorderDelay >= 0, reorderDelay <= 3600 else {
                throw .invalidConfiguration("reorderDelay must be between 0 and 3600 s, got \(reorderDelay)")
            }
            if let sampleSigma, !(sampleSigma.isFinite && sampleSigma > 0 && sampleSigma <= 30) {
                throw .invalidConfiguration("sampleSigma must be in (0, 30] dB, got \(sampleSigma)")
            }
            try learning?.validate()
            if let wallAttenuation, !FloorPlan.wallAttenuationRange.contains(wallAttenuation) {
                throw .invalidConfiguration("wallAttenuation must be in 0...40 dB, got \(wallAttenuation)")
            }
            guard placeShadowingVariance.isFinite, (0...900).contains(placeShadowingVariance) else {
                throw .invalidConfiguration(
                    "placeShadowingVariance must be in 0...900 dB² (a 30-dB spread), got \(placeShadowingVariance)")
            }
            guard lag.isFinite, lag >= 0, lag <= 3600 else {
                throw .invalidConfiguration("lag must be between 0 and 3600 s, got \(lag)")
            }
            if lag > 0 && tracking == .none {
                throw .invalidConfiguration("lag refines tracked positions; it needs Kalman tracking")
            }
            if learning != nil && tracking == .none {
                throw .invalidConfiguration("learning learns from tracked epochs; it needs Kalman tracking")
            }
            if let compactAfter, !(compactAfter.isFinite && compactAfter > 0) {
                throw .invalidConfiguration("compactAfter must be a positive number of seconds, got \(compactAfter)")
            }
            if let idleRelease, !(idleRelease.isFinite && idleRelease > 0) {
                throw .invalidConfiguration("idleRelease must be a positive number of seconds, got \(idleRelease)")
            }
            do {
                try tracker.validate()
                try deviceOffset?.validate()
                try shadowing.validate()
                try solver.validate()
                _ = try FloorEstimator(configuration: floor)
            } catch {
                throw .invalidConfiguration(String(describing: error))
            }
        }
    }

    /// What the engine has counted since it started.
    public struct Statistics: Sendable, Hashable, Codable {
        /// Samples used.
        public var accepted = 0
        /// Samples of beacons that are not in the plan.
        public var unknownBeacon = 0
        /// Samples whose RSSI is not a reading (0, 127, NaN, positive, below −130 dBm).
        public var invalidRSSI = 0
        /// Samples with a non-finite timestamp, or one beyond ±``RSSISample/timestampLimit``.
        public var invalidTime = 0
        /// Samples that arrived after their epoch was closed (see ``Configuration/reorderDelay``).
        public var late = 0
        /// Reports produced.
        public var reports = 0
        /// Reports of those that are fallback fixes (source `fallback`: fewer beacons than a
        /// position needs, and no track to report instead; see
        /// `TrilaterationSolver.Configuration.fallback` for how they are placed).
        public var fallbackReports = 0
        /// Times a device's track was restarted after the tracker refused its input.
        public var trackRestarts = 0
        /// Devices finished and forgotten after ``Configuration/idleRelease`` without a sample.
        public var releasedDevices = 0
        /// Samples used that carried the phone's activity hint (``RSSISample/activity``).
        public var activityHints = 0
        /// Epochs with samples that gave no report because no fix could be made from them (for
        /// example while the floor rule still holds the old floor and only another floor's
        /// beacons are heard).
        public var epochsWithoutFix = 0
        /// Epochs with samples that gave no report because the tracker refused them and their
        /// fix was not determined (a fallback fix does not stand in for a refused track).
        public var epochsRefused = 0
        /// Times the models learned online were taken into use (``Configuration/learning``;
        /// every `updateInterval` of input time after the first). 0: every report used the
        /// starting models.
        public var learnedModelUpdates = 0
        /// Σ χ² of the determined fixes that had degrees of freedom (`Fix.chiSquare`), each
        /// rounded to 2⁻²⁰: kept as a count of those units, so that the sum is exact and the same
        /// in any order (a sharded run adds its workers' sums in an order that depends on the
        /// number of threads, and the detection posterior's readings are weighed by this sum).
        public var fitChiSquare: Double { Double(fitChiSquareUnits) / Self.chiSquareUnit }
        /// ``fitChiSquare`` in units of 2⁻²⁰.
        var fitChiSquareUnits: Int64 = 0
        /// The unit of ``fitChiSquareUnits``: 2²⁰ per 1 of χ².
        static let chiSquareUnit = 1_048_576.0
        /// Σ degrees of freedom of the same fixes (`Fix.degreesOfFreedom`).
        public var fitDegreesOfFreedom = 0
        /// Which beacons the determined fixes heard and missed (a bounded sample), when
        /// ``Configuration/recordsDetections`` is on (empty otherwise).
        public var detections = DetectionScans()

        /// The a-posteriori variance factor σ̂₀² = Σχ² / Σdof of the fixes so far: about 1 when
        /// the path-loss models describe the site as well as their σ says, larger when walls,
        /// bodies or wrong values make the readings scatter more; nil before any fix had
        /// degrees of freedom.
        public var varianceFactor: Double? {
            fitDegreesOfFreedom > 0 ? fitChiSquare / Double(fitDegreesOfFreedom) : nil
        }

        /// Epochs with samples that gave no report, for any reason: every epoch with samples is
        /// either reported or counted here.
        public var epochsWithoutReport: Int { epochsWithoutFix + epochsRefused }
    }

    /// What happened to one pushed sample.
    public enum SampleOutcome: Sendable, Hashable {
        /// Buffered for its epoch.
        case accepted
        /// The beacon is not in the plan.
        case unknownBeacon
        /// The RSSI is not a usable reading.
        case invalidRSSI(RSSIRejection)
        /// The timestamp is NaN, infinite, or beyond ±``RSSISample/timestampLimit`` seconds.
        case invalidTime
        /// The sample's epoch was already closed.
        case late
    }
}
