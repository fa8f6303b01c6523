import Foundation
import Testing
@testable import AtpadDirectory
@testable import AtpadSystem

/// LDIF as ldapsearch prints it: folded lines, base64 values, comments, several entries.
@Suite struct LDIFTests {
    @Test func foldedLinesBase64ValuesAndCommentsAreReadProperly() throws {
        let name = Data("José Álvarez".utf8).base64EncodedString()
        let text = """
            version: 1

            # jalvarez, people, example.org
            dn: uid=jalvarez,ou=people,dc=example,dc=org
            uid: jalvarez
            displayName:: \(name)
            title: Principal engineer for directory services, identity federation and th
             e long tail
            mail: j@example.org
            mail: second@example.org

            dn: uid=b,ou=people,dc=example,dc=org\r
            uid: b\r
            cn:: \(Data("Bjørn".utf8).base64EncodedString().prefix(4))
             \(Data("Bjørn".utf8).base64EncodedString().dropFirst(4))
            jpegPhoto:: /9j/4AAQ
            description:< file:///etc/passwd

            """
        let entries = try LDIF.entries(of: Array(text.utf8))
        #expect(entries.count == 2)
        let first = Dictionary(uniqueKeysWithValues: entries[0].map { ($0.name, $0.value) })
        #expect(first["displayName"] == "José Álvarez")
        #expect(first["title"] == "Principal engineer for directory services, identity federation and the long tail")
        #expect(first["mail"] == "j@example.org")
        let second = Dictionary(uniqueKeysWithValues: entries[1].map { ($0.name, $0.value) })
        #expect(second["cn"] == "Bjørn")
        #expect(second["uid"] == "b")
        #expect(second["jpegPhoto"] == nil)  // binary, not text
        #expect(second["description"] == nil)
    }

    @Test func badLDIFFailsNamingTheLine() {
        #expect(throws: SourceError("LDIF line 2: no \":\" after the attribute name")) {
            try LDIF.entries(of: Array("dn: x\nnonsense\n".utf8))
        }
        #expect(throws: SourceError("LDIF line 1: the base64 value of cn is not valid base64")) {
            try LDIF.entries(of: Array("cn:: ***\n".utf8))
        }
    }

    @Test func entriesBecomeJSONItemsForTheMap() throws {
        let json = try LDIF.jsonText(of: Array("dn: a\nuid: a\ncn: A \"q\"\n\ndn: b\nuid: b\n".utf8))
        #expect(json == #"[{"dn":"a","uid":"a","cn":"A \"q\""},{"dn":"b","uid":"b"}]"#)
    }
}
