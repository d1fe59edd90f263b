import Foundation

/// A self-contained HTML page that replays the tracks of a ``PlanPicture`` over the floor: a
/// time slider and a play button, the current position of each device with its 1-σ ellipse,
/// the true position, and the region events up to the current time. Everything is inline (SVG,
/// a little plain JavaScript, CSS); nothing is fetched from the network.
///
/// The page reads an optional `#t=0.5` fragment (a share of the replay's duration, 0…1) and
/// moves the slider there on load, so a headless browser can take a picture at any time
/// (`Scripts/check-replay.sh`).
public struct ReplayPage: Sendable {
    /// The floor picture replayed.
    public let picture: PlanPicture

    /// A page for `picture`.
    public init(picture: PlanPicture) { self.picture = picture }

    /// The time span of everything replayed, seconds.
    var span: (start: Double, end: Double) {
        var times: [Double] = []
        for points in picture.fixes.values {
            if let f = points.first, let l = points.last { times += [f.timestamp, l.timestamp] }
        }
        for points in picture.truth.values {
            if let f = points.first, let l = points.last { times += [f.timestamp, l.timestamp] }
        }
        times += picture.events.map(\.timestamp)
        return (times.min() ?? 0, max(times.max() ?? 1, (times.min() ?? 0) + 1e-3))
    }

    static func n(_ value: Double) -> String { SVGDocument.number(value) }

    /// A JSON string literal safe inside a `<script>` element (`<` escaped).
    static func jsString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The replay data as a JavaScript object literal: times relative to the start (seconds),
    /// positions in picture pixels.
    var data: String {
        let (start, end) = span
        var devices: [String] = []
        for device in picture.devices {
            guard let points = picture.fixes[device] else { continue }
            let rows = points.map { p -> String in
                let (x, y) = picture.projection.pixel(p.x, p.y)
                let e = picture.ellipsePixels(p)
                return
                    "[\(Self.n(p.timestamp - start)),\(Self.n(x)),\(Self.n(y)),\(Self.n(e?.rx ?? 0)),\(Self.n(e?.ry ?? 0)),\(Self.n(e?.degrees ?? 0))]"
            }
            devices.append(
                "{\"name\":\(Self.jsString(device)),\"colour\":\"\(picture.colour(of: device))\",\"fixes\":[\(rows.joined(separator: ","))]}"
            )
        }
        var truths: [String] = []
        for (name, points) in picture.truth.sorted(by: { $0.key < $1.key }) {
            let rows = points.map { p -> String in
                let (x, y) = picture.projection.pixel(p.x, p.y)
                return "[\(Self.n(p.timestamp - start)),\(Self.n(x)),\(Self.n(y))]"
            }
            truths.append("{\"name\":\(Self.jsString(name)),\"points\":[\(rows.joined(separator: ","))]}")
        }
        var events: [String] = []
        for event in picture.events {
            let at = picture.location(of: event.device, at: event.timestamp) ?? picture.anchor(of: event.region)
            let label = event.region + (event.flag.map { " (\($0))" } ?? "")
            events.append(
                "[\(Self.n(event.timestamp - start)),\(at.map { Self.n($0.0) } ?? "null"),\(at.map { Self.n($0.1) } ?? "null"),"
                    + "\(Self.jsString(label)),\(event.state == .satisfied),\(Self.jsString(event.device))]")
        }
        return
            "{\"start\":\(start),\"duration\":\(Self.n(end - start)),\"devices\":[\(devices.joined(separator: ","))],"
            + "\"truth\":[\(truths.joined(separator: ","))],\"events\":[\(events.joined(separator: ","))]}"
    }

    /// The picture with faint full tracks and the moving markers (one group per device).
    var svg: String {
        let (width, height) = picture.size
        var svg = SVGDocument(width: width, height: height)
        picture.drawPlan(into: &svg)
        let p = picture.projection
        svg.raw(
            "<defs><clipPath id=\"plan-area\"><rect x=\"\(Self.n(p.left))\" y=\"\(Self.n(p.top))\" width=\"\(Self.n(p.pixelWidth))\" height=\"\(Self.n(p.pixelHeight))\"/></clipPath></defs>"
        )
        svg.beginGroup([("clip-path", "url(#plan-area)")])
        for (_, points) in picture.truth.sorted(by: { $0.key < $1.key }) {
            for segment in picture.segments(points) {
                svg.path(
                    segment, closed: false,
                    [
                        ("fill", "none"), ("stroke", Palette.truth), ("stroke-width", "1"),
                        ("stroke-dasharray", "4 3"), ("stroke-opacity", "0.35")
                    ])
            }
        }
        for (index, device) in picture.devices.enumerated() {
            let colour = picture.colour(of: device)
            for segment in picture.segments(picture.fixes[device] ?? []) {
                svg.path(
                    segment, closed: false,
                    [("fill", "none"), ("stroke", colour), ("stroke-width", "1"), ("stroke-opacity", "0.2")])
            }
            svg.raw(
                "<polyline id=\"trail-\(index)\" points=\"\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>")
            svg.raw(
                "<ellipse id=\"ellipse-\(index)\" cx=\"0\" cy=\"0\" rx=\"0\" ry=\"0\" fill=\"\(colour)\" fill-opacity=\"0.15\" stroke=\"\(colour)\" visibility=\"hidden\"/>"
            )
        }
        for (index, _) in picture.truth.sorted(by: { $0.key < $1.key }).enumerated() {
            svg.raw(
                "<circle id=\"truth-\(index)\" cx=\"0\" cy=\"0\" r=\"6\" fill=\"none\" stroke=\"\(Palette.truth)\" stroke-width=\"2\" visibility=\"hidden\"/>"
            )
        }
        for (index, device) in picture.devices.enumerated() {
            svg.raw(
                "<circle id=\"marker-\(index)\" class=\"marker\" cx=\"0\" cy=\"0\" r=\"7\" fill=\"\(picture.colour(of: device))\" stroke=\"white\" stroke-width=\"2\" visibility=\"hidden\"/>"
            )
        }
        svg.raw("<g id=\"event-marks\"></g>")
        svg.endGroup()
        picture.drawLabels(events: false, into: &svg)
        return svg.element(id: "plan")
    }

    /// The page.
    public func html() -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(SVGDocument.escaped(picture.title)) — replay</title>
        <style>
        body { font-family: Helvetica, Arial, sans-serif; margin: 12px; color: #222; }
        #controls { display: flex; align-items: center; gap: 10px; margin: 6px 0 10px; max-width: 900px; }
        #time { flex: 1; }
        #clock { font-variant-numeric: tabular-nums; min-width: 9em; }
        #layout { display: flex; gap: 16px; align-items: flex-start; }
        #events { list-style: none; padding: 0; margin: 0; font-size: 13px; max-height: 640px; overflow-y: auto; min-width: 14em; }
        #events li { color: #aaa; padding: 1px 0; }
        #events li.past { color: #222; }
        #events li.latest { font-weight: bold; }
        </style>
        </head>
        <body>
        <div id="controls">
        <button id="play" type="button">▶ Play</button>
        <select id="speed" aria-label="speed"><option value="1">1×</option><option value="5" selected>5×</option><option value="20">20×</option></select>
        <input id="time" type="range" min="0" max="\(Self.n(span.end - span.start))" step="0.05" value="0" aria-label="time">
        <span id="clock">0.0 s</span>
        </div>
        <div id="layout">
        \(svg)<ol id="events"></ol>
        </div>
        <script>
        "use strict";
        const DATA = \(data);
        \(Self.script)
        </script>
        </body>
        </html>

        """
    }

    /// The replay logic: binary search for the last fix at or before the slider's time, linear
    /// interpolation of the truth, events up to the time.
    static let script = """
        const slider = document.getElementById("time"), clock = document.getElementById("clock");
        const playButton = document.getElementById("play"), speed = document.getElementById("speed");
        const list = document.getElementById("events"), marks = document.getElementById("event-marks");
        const NS = "http://www.w3.org/2000/svg";
        function lastAtOrBefore(rows, t) {
          let lo = 0, hi = rows.length;
          while (lo < hi) { const mid = (lo + hi) >> 1; if (rows[mid][0] <= t) lo = mid + 1; else hi = mid; }
          return lo - 1;
        }
        DATA.events.forEach(function (e) {
          const item = document.createElement("li");
          item.textContent = e[0].toFixed(1) + " s  " + (e[4] ? "→ " : "← ") + e[3] + (e[5] ? "  (" + e[5] + ")" : "");
          list.appendChild(item);
        });
        function show(t) {
          clock.textContent = t.toFixed(1) + " s";
          DATA.devices.forEach(function (d, i) {
            const k = lastAtOrBefore(d.fixes, t);
            const marker = document.getElementById("marker-" + i), ellipse = document.getElementById("ellipse-" + i);
            const trail = document.getElementById("trail-" + i);
            // Before the first fix, or 10 s after the last one, the device is not shown.
            if (k < 0 || t - d.fixes[k][0] > 10) { marker.setAttribute("visibility", "hidden"); ellipse.setAttribute("visibility", "hidden"); trail.setAttribute("points", ""); return; }
            const f = d.fixes[k];
            marker.setAttribute("cx", f[1]); marker.setAttribute("cy", f[2]); marker.setAttribute("visibility", "visible");
            ellipse.setAttribute("cx", f[1]); ellipse.setAttribute("cy", f[2]);
            ellipse.setAttribute("rx", f[3]); ellipse.setAttribute("ry", f[4]);
            ellipse.setAttribute("transform", "rotate(" + f[5] + " " + f[1] + " " + f[2] + ")");
            ellipse.setAttribute("visibility", f[3] > 0 ? "visible" : "hidden");
            trail.setAttribute("points", d.fixes.slice(Math.max(0, k - 20), k + 1).map(function (r) { return r[1] + "," + r[2]; }).join(" "));
          });
          DATA.truth.forEach(function (d, i) {
            const c = document.getElementById("truth-" + i), p = d.points;
            const k = lastAtOrBefore(p, t);
            if (k < 0 || t > p[p.length - 1][0]) { c.setAttribute("visibility", "hidden"); return; }
            let x = p[k][1], y = p[k][2];
            if (k + 1 < p.length && p[k + 1][0] > p[k][0]) {
              const s = (t - p[k][0]) / (p[k + 1][0] - p[k][0]);
              x += s * (p[k + 1][1] - x); y += s * (p[k + 1][2] - y);
            }
            c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("visibility", "visible");
          });
          while (marks.firstChild) marks.removeChild(marks.firstChild);
          let latest = -1, shown = 0;
          DATA.events.forEach(function (e, i) {
            const past = e[0] <= t;
            list.children[i].className = past ? "past" : "";
            if (past) latest = i;
            if (past && t - e[0] < 3 && e[1] !== null) {
              const ring = document.createElementNS(NS, "circle");
              ring.setAttribute("cx", e[1]); ring.setAttribute("cy", e[2]); ring.setAttribute("r", 12 + 4 * (t - e[0]));
              ring.setAttribute("fill", "none"); ring.setAttribute("stroke", "\(Palette.region)"); ring.setAttribute("stroke-width", "3");
              const label = document.createElementNS(NS, "text");
              label.setAttribute("x", e[1] + 14); label.setAttribute("y", e[2] - 12 - 14 * shown++); label.setAttribute("fill", "#8B6508");
              label.textContent = (e[4] ? "→ " : "← ") + e[3];
              marks.appendChild(ring); marks.appendChild(label);
            }
          });
          if (latest >= 0) list.children[latest].className = "past latest";
        }
        let playing = false, last = null;
        function frame(now) {
          if (!playing) return;
          if (last !== null) {
            const t = Math.min(Number(slider.max), Number(slider.value) + (now - last) / 1000 * Number(speed.value));
            slider.value = t; show(t);
            if (t >= Number(slider.max)) { playing = false; playButton.textContent = "▶ Play"; }
          }
          last = now;
          if (playing) requestAnimationFrame(frame);
        }
        playButton.addEventListener("click", function () {
          playing = !playing; last = null;
          playButton.textContent = playing ? "❚❚ Pause" : "▶ Play";
          if (playing) { if (Number(slider.value) >= Number(slider.max)) slider.value = 0; requestAnimationFrame(frame); }
        });
        slider.addEventListener("input", function () { show(Number(slider.value)); });
        const hash = /t=([0-9.]+)/.exec(location.hash);
        if (hash) { slider.value = Math.min(1, Number(hash[1])) * Number(slider.max); slider.dispatchEvent(new Event("input")); }
        else show(0);
        """
}
