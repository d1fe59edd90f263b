// Learning the beacons' path-loss models from the site's own traffic, without a survey: in one
// batch (a day's samples), or online while positioning, saved at night and resumed the next day.
import Foundation
import IndoorPositioning

enum TrafficLearning {
    /// `seconds` of the simulated phone's samples, as the ranging loop makes them.
    static func traffic(plan: FloorPlan, seconds: Int) -> [RSSISample] {
        var phone = RangingSimulation(plan: plan)
        var samples: [RSSISample] = []
        for second in 1...seconds {
            for delivery in phone.callback(at: Double(second)) {
                samples += delivery.beacons.compactMap { RangingLoop.sample($0, at: delivery.time) }
            }
        }
        return samples
    }

    /// Both ways; returns the beacons learned in the batch, the positions located with them,
    /// and the model updates of the resumed engine (1: the saved models, taken at once).
    static func run(plan: FloorPlan) throws -> (learned: Int, positions: Int, resumedUpdates: Int) {
        let samples = traffic(plan: plan, seconds: 120)

        // A day's traffic at once: learn, then locate with the learned models and what the
        // learning found beside them (their standard errors, the place's shadowing, the walls'
        // loss, the devices' offset prior).
        let result = try TrafficCalibration.learn(samples, plan: plan)
        let learned = result.estimates.filter { $0.source == .traffic }.count
        let reports = try PositioningEngine.locate(
            samples, plan: plan, calibration: result.models, configuration: result.configuration())

        // Online: the engine learns while it positions; its learner is saved at the end of the day.
        var configuration = PositioningEngine.Configuration()
        configuration.learning = OnlineLearning()
        var today = try PositioningEngine(plan: plan, configuration: configuration)
        for sample in samples { today.push(sample) }
        _ = today.finish()
        let saved = try JSONEncoder().encode(today.learner!)

        // The next day: a new engine continues from the saved learner, its models in use at once.
        var tomorrow = try PositioningEngine(plan: plan, configuration: configuration)
        try tomorrow.resumeLearning(from: JSONDecoder().decode(SiteCalibrator.self, from: saved))
        return (learned, reports.count, tomorrow.statistics.learnedModelUpdates)
    }
}
