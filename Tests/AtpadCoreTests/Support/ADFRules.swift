import Foundation

/// The node and mark rules of the Atlassian Document Format, as Atlassian's documentation
/// of each node states them (developer.atlassian.com, "Atlassian Document Format" → Nodes
/// and Marks), for the nodes atpad writes: which nodes a node may hold and how many,
/// which marks a text may carry and with which others, the attributes each needs. Written
/// here from the documentation, not from atpad's writer, so that the writer is checked.
enum ADFRules {
    /// The block nodes each container may hold.
    private static let blocks: [String: Set<String>] = [
        "doc": ["paragraph", "heading", "bulletList", "orderedList", "codeBlock", "blockquote", "rule", "table",
                "panel", "mediaGroup", "mediaSingle", "expand"],
        "blockquote": ["paragraph", "bulletList", "orderedList", "codeBlock", "mediaGroup", "mediaSingle"],
        "listItem": ["paragraph", "bulletList", "orderedList", "codeBlock", "mediaSingle"],
        "tableCell": ["paragraph", "heading", "bulletList", "orderedList", "codeBlock", "blockquote", "rule", "panel",
                      "mediaGroup", "nestedExpand"],
        "tableHeader": ["paragraph", "heading", "bulletList", "orderedList", "codeBlock", "blockquote", "rule", "panel",
                        "mediaGroup", "nestedExpand"],
    ]
    /// The inline nodes a paragraph or heading may hold.
    private static let inlines: Set<String> = ["text", "mention", "hardBreak", "emoji", "inlineCard", "date", "status"]
    /// The marks a text may carry.
    private static let marks: Set<String> = ["strong", "em", "strike", "code", "link", "underline", "subsup", "textColor"]

    /// The rules `json` (a whole document) breaks, each as `path: what`; empty when it obeys them.
    static func violations(_ json: [UInt8]) -> [String] {
        guard let doc = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return ["not a JSON object"] }
        var out: [String] = []
        if doc["type"] as? String != "doc" { out.append("doc: type is not doc") }
        if doc["version"] as? Int != 1 { out.append("doc: version is not 1") }
        check(doc, path: "doc", into: &out)
        return out
    }

    private static func check(_ node: [String: Any], path: String, into out: inout [String]) {
        let type = node["type"] as? String ?? "?"
        let content = node["content"] as? [[String: Any]]
        if node["content"] != nil, content == nil { out.append("\(path): content is not an array of nodes") }
        let children = content ?? []
        let kinds = children.map { $0["type"] as? String ?? "?" }
        func allow(_ allowed: Set<String>) {
            for (i, kind) in kinds.enumerated() where !allowed.contains(kind) { out.append("\(path)/\(i): \(kind) not allowed in \(type)") }
        }
        func atLeastOne() { if children.isEmpty { out.append("\(path): \(type) needs at least one node") } }
        func none() { if !children.isEmpty { out.append("\(path): \(type) holds no content") } }
        switch type {
        case "doc", "blockquote", "tableCell", "tableHeader":
            allow(blocks[type]!)
            if type != "doc" { atLeastOne() }
        case "listItem":
            allow(blocks["listItem"]!)
            atLeastOne()
            if let first = kinds.first, first == "bulletList" || first == "orderedList" {
                out.append("\(path): a listItem's first node is not a list")
            }
        case "bulletList", "orderedList":
            allow(["listItem"])
            atLeastOne()
            if let order = (node["attrs"] as? [String: Any])?["order"] {
                if (order as? Int).map({ $0 < 0 }) ?? true { out.append("\(path): order is not a number ≥ 0") }
            }
        case "paragraph":
            allow(inlines)
        case "heading":
            allow(inlines)
            let level = (node["attrs"] as? [String: Any])?["level"] as? Int
            if level.map({ !(1 ... 6).contains($0) }) ?? true { out.append("\(path): heading level is not 1…6") }
        case "codeBlock":
            allow(["text"])
            for (i, child) in children.enumerated() where child["marks"] != nil { out.append("\(path)/\(i): code block text has marks") }
            if let attrs = node["attrs"] as? [String: Any], attrs["language"] != nil, !(attrs["language"] is String) {
                out.append("\(path): language is not a string")
            }
        case "table":
            allow(["tableRow"])
            atLeastOne()
        case "tableRow":
            allow(["tableHeader", "tableCell"])
            atLeastOne()
        case "rule", "hardBreak":
            none()
        case "text":
            none()
            if (node["text"] as? String)?.isEmpty ?? true { out.append("\(path): text is missing or empty") }
            checkMarks(node["marks"], path: path, into: &out)
        case "mention":
            none()
            if node["marks"] != nil { out.append("\(path): a mention carries no marks") }
            let attrs = node["attrs"] as? [String: Any]
            if (attrs?["id"] as? String)?.isEmpty ?? true { out.append("\(path): mention without an id") }
        default:
            out.append("\(path): unknown node \(type)")
        }
        for (i, child) in children.enumerated() { check(child, path: "\(path)/\(i)", into: &out) }
    }

    private static func checkMarks(_ value: Any?, path: String, into out: inout [String]) {
        guard let value else { return }
        guard let list = value as? [[String: Any]], !list.isEmpty else {
            out.append("\(path): marks is not a list of marks")
            return
        }
        let names = list.map { $0["type"] as? String ?? "?" }
        for name in names where !marks.contains(name) { out.append("\(path): unknown mark \(name)") }
        if Set(names).count != names.count { out.append("\(path): a mark repeated") }
        // The code mark goes with a link only.
        if names.contains("code"), names.contains(where: { $0 != "code" && $0 != "link" }) {
            out.append("\(path): code with \(names)")
        }
        for mark in list where mark["type"] as? String == "link" {
            if ((mark["attrs"] as? [String: Any])?["href"] as? String)?.isEmpty ?? true { out.append("\(path): link without href") }
        }
    }
}
