import ArgumentParser
import Evaluation
import Foundation
import PositioningIO
import Rendering

/// Output formats of `indoorpos render`.
enum RenderFormat: String, CaseIterable, ExpressibleByArgument {
    /// One SVG picture of a floor.
    case svg
    /// A self-contained HTML page that replays the track with a time slider.
    case html
}

/// `indoorpos render --plan P [--fixes F] [--truth T] [--events E]`: a picture of one floor.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract:
            "Draw a floor: outline, zones, beacons, the estimated and true tracks, error ellipses, region events.",
        discussion: """
            Draws one floor (--level, default the floor with the most fixes) as SVG, or with \
            --format html as a self-contained page that replays the track over the plan with a time \
            slider (nothing is fetched from the network). Fixes are the CSV of 'indoorpos locate' \
            (1-sigma ellipses from varX,varY,covXY when present, else the accuracy circle); the \
            truth is timestamp,x,y[,floor,device]; regions are the JSON of 'indoorpos monitor' and \
            events its CSV.
            """
    )

    @OptionGroup var planOption: PlanOption

    @Option(name: .long, help: "Fixes CSV (timestamp,x,y,floor,accuracy[,device,...]).")
    var fixes: String?

    @Option(name: .long, help: "Truth CSV (timestamp,x,y[,floor,device]).")
    var truth: String?

    @Option(
        name: .long, help: "Regions JSON (as for 'indoorpos monitor'): circles, zones and beacon regions are drawn.")
    var regions: String?

    @Option(name: .long, help: "Region events CSV (timestamp,region,state[,device,refinement,flag]).")
    var events: String?

    @Option(
        name: .long, parsing: .unconditional, help: "The floor level to draw (default: the floor with the most fixes).")
    var level: Int?

    @Option(name: .long, help: "Draw only this device.")
    var device: String?

    @Option(name: .long, help: "Output format: an SVG picture or an HTML replay page.")
    var format: RenderFormat = .svg

    @OptionGroup var outputOption: OutputOption

    var plan: String { planOption.plan }
    var output: String? { outputOption.output }

    func run() throws {
        try ToolErrors.run {
            let floorPlan = try FloorPlan.load(path: plan)
            let picture = try PlanPicture(
                plan: floorPlan, fixes: try fixes.map(TrackTable.read(path:)),
                truth: try truth.map(TrackTable.read(path:)),
                events: try events.map(RegionEvent.read(path:)) ?? [],
                regions: try regions.map { path throws(MonitorError) in
                    try RegionsFile.load(path: path, plan: floorPlan)
                },
                level: level, device: device)
            if fixes != nil && picture.fixes.isEmpty {
                FileHandle.standardError.write(
                    Data("note: no fix lies on level \(picture.floor.level); the picture shows the plan only\n".utf8))
            }
            let out = try OutputFile(
                path: output, notOverwriting: [plan] + [fixes, truth, regions, events].compactMap { $0 })
            switch format {
            case .svg: out.write(picture.svg())
            case .html: out.write(ReplayPage(picture: picture).html())
            }
            try out.commit()
        }
    }
}
