import Foundation
import Testing

/// Every `indoorpos` command a guide page shows runs as written: the shell blocks of
/// `Docs/Guide/*.md` are read, each `indoorpos …` line (continuation lines joined) is run as a
/// subprocess from a scratch folder in which `Docs` is the repository's, so the bundled files
/// are found by the paths the pages write and outputs stay out of the checkout. A page's
/// commands run in order, as a reader follows it (a later one may read what an earlier one
/// wrote); each must exit 0,
/// or the status its comment gives (`# exits 1`). A ```` ```text ```` block right after a shell
/// block is what its last command prints on standard output.
@Suite("Docs/Guide: every documented indoorpos command runs")
struct DocumentedCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The guide pages with `indoorpos` commands; `everyPageIsCovered` checks that no other has one.
    static let pages = ["GettingStarted.md", "VenuePlan.md", "Calibration.md", "Pipeline.md", "Monitoring.md"]

    struct Command {
        var line: Int
        var words: [String]
        var status: Int32
    }

    struct Block {
        var commands: [Command]
        var output: String?
    }

    /// The shell blocks of `page` that hold `indoorpos` commands.
    static func blocks(in page: String) throws -> [Block] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var afterCommands = false  // the last fenced block was a shell block with commands
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            var body: [(Int, String)] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append((index + 1, lines[index]))
                index += 1
            }
            index += 1
            if language == "text", afterCommands, let last = blocks.indices.last {
                blocks[last].output = body.map(\.1).joined(separator: "\n")
                afterCommands = false
                continue
            }
            afterCommands = false
            guard ["sh", "bash", "shell", "console"].contains(language) else { continue }
            var commands: [Command] = []
            var pending: (line: Int, text: String)?
            for (number, text) in body {
                let joined = (pending?.text ?? "") + text
                if joined.hasSuffix("\\") {
                    pending = (pending?.line ?? number, String(joined.dropLast()))
                    continue
                }
                let start = pending?.line ?? number
                pending = nil
                if let command = try command(joined, line: start) { commands.append(command) }
            }
            if !commands.isEmpty {
                blocks.append(Block(commands: commands, output: nil))
                afterCommands = true
            }
        }
        return blocks
    }

    /// The command of one shell line when it runs `indoorpos`, nil otherwise. A trailing
    /// `# exits N` gives the expected status; other comments are dropped.
    static func command(_ text: String, line: Int) throws -> Command? {
        var code = text
        var status: Int32 = 0
        if let hash = code.range(of: " #") {
            let comment = code[hash.upperBound...].trimmingCharacters(in: .whitespaces)
            if comment.hasPrefix("exits "), let value = Int32(comment.dropFirst(6).prefix { $0.isNumber }) {
                status = value
            }
            code = String(code[..<hash.lowerBound])
        }
        let words = try shellWords(code)
        guard words.first == "indoorpos" else { return nil }
        return Command(line: line, words: Array(words.dropFirst()), status: status)
    }

    struct UnsupportedShell: Error, CustomStringConvertible {
        var text: String
        var description: String { "a documented indoorpos command uses shell syntax the test cannot run: \(text)" }
    }

    /// Words of a command line as `sh` splits them, for the quoting the pages use (single and
    /// double quotes); pipes, redirections, variables and substitutions are refused, so that a
    /// documented `indoorpos` command is always one this test runs.
    static func shellWords(_ text: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "|", ">", "<", "$", "`", ";", "&":
                if words.first == "indoorpos" || (words.isEmpty && word == "indoorpos") {
                    throw UnsupportedShell(text: text)
                }
                word.append(character)
                inWord = true
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// Runs `block` in `folder`.
    static func run(_ block: Block, page: String, in folder: ScratchFolder) throws {
        var last: (status: Int32, stdout: String, stderr: String)?
        for command in block.commands {
            let run = try Tool.run(command.words, directory: folder.url)
            #expect(
                run.status == command.status,
                "\(page):\(command.line): indoorpos \(command.words.joined(separator: " ")) exited \(run.status): \(run.stderr)"
            )
            last = run
        }
        if let output = block.output, let last, let command = block.commands.last {
            let trim = { (text: String) in
                text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
                    .joined(separator: "\n").trimmingCharacters(in: .newlines)
            }
            #expect(trim(last.stdout) == trim(output), "\(page):\(command.line): the output differs from the page's")
        }
    }

    @Test("each guide page's indoorpos commands run as written", arguments: pages)
    func guidePage(_ page: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Docs/Guide/\(page)"), encoding: .utf8)
        let blocks = try Self.blocks(in: text)
        #expect(!blocks.isEmpty, "\(page) shows no indoorpos command")
        let folder = try ScratchFolder("documented-command")
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("Docs"), withDestinationURL: Self.root.appendingPathComponent("Docs"))
        for block in blocks { try Self.run(block, page: page, in: folder) }
    }

    @Test("every guide page that shows an indoorpos command is tested, and outputs are found")
    func everyPageIsCovered() throws {
        let guide = Self.root.appendingPathComponent("Docs/Guide")
        let names = try FileManager.default.contentsOfDirectory(atPath: guide.path).filter { $0.hasSuffix(".md") }
        var commands = 0
        var outputs = 0
        for name in names {
            let blocks = try Self.blocks(in: String(contentsOf: guide.appendingPathComponent(name), encoding: .utf8))
            #expect(blocks.isEmpty || Self.pages.contains(name), "\(name) shows indoorpos commands: add it to pages")
            commands += blocks.map(\.commands.count).reduce(0, +)
            outputs += blocks.filter { $0.output != nil }.count
        }
        #expect(commands >= 14, "\(commands) commands found")
        #expect(outputs >= 1, "\(outputs) documented outputs found")
    }

    @Test("the plan A plan for your venue shows is Docs/Examples/shop-plan.json")
    func venuePlan() throws {
        let page = try String(
            contentsOf: Self.root.appendingPathComponent("Docs/Guide/VenuePlan.md"), encoding: .utf8)
        let file = try String(
            contentsOf: Self.root.appendingPathComponent("Docs/Examples/shop-plan.json"), encoding: .utf8)
        let start = try #require(page.range(of: "```json\n"))
        let end = try #require(page[start.upperBound...].range(of: "\n```"))
        #expect(String(page[start.upperBound..<end.lowerBound]) == file.trimmingCharacters(in: .newlines))
    }
}
