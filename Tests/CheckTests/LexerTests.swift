import Testing

@testable import SkillCheck

/// (kind, text) of every token, for exact comparisons.
private func lex(_ source: String, _ language: SourceLanguage) -> [String] {
    let bytes = Array(source.utf8)
    return Lexer.tokens(source, language: language).map { token in
        let kind: String
        switch token.kind {
        case .identifier: kind = "id"
        case .keyword: kind = "kw"
        case .attribute: kind = "attr"
        case .directive: kind = "dir"
        case .string: kind = "str"
        case .number: kind = "num"
        case .symbol: kind = "sym"
        }
        return "\(kind):\(Lexer.text(of: token, in: bytes))"
    }
}

@Suite struct LexerTests {
    @Test func swiftDeclarationWithAttributeAndComments() {
        let source = """
            // a comment: @State var x
            @State private var count = 0 /* block /* nested */ still comment */
            """
        #expect(lex(source, .swift) == ["attr:@State", "kw:private", "kw:var", "id:count", "sym:=", "num:0"])
    }

    @Test func swiftStringsAreOneTokenEach() {
        let source = #"""
            let a = "x // not a comment \(f("y)")) end"
            let b = #"raw "quoted" \(no) "#
            let c = """
                multi "line" // still string
                """
            """#
        #expect(
            lex(source, .swift) == [
                "kw:let", "id:a", "sym:=", #"str:"x // not a comment \(f("y)")) end""#,
                "kw:let", "id:b", "sym:=", ##"str:#"raw "quoted" \(no) "#"##,
                "kw:let", "id:c", "sym:=", "str:\"\"\"\n    multi \"line\" // still string\n    \"\"\"",
            ])
    }

    @Test func swiftDirectivesMembersAndOperators() {
        let source = "#Preview { List(items) { $0.name }.task(id: x) { await load() } }\na ?? b...c"
        #expect(
            lex(source, .swift) == [
                "dir:#Preview", "sym:{", "id:List", "sym:(", "id:items", "sym:)", "sym:{", "id:$0", "sym:.", "id:name", "sym:}",
                "sym:.", "id:task", "sym:(", "id:id", "sym::", "id:x", "sym:)", "sym:{", "kw:await", "id:load", "sym:(", "sym:)",
                "sym:}", "sym:}", "id:a", "sym:??", "id:b", "sym:...", "id:c",
            ])
    }

    @Test func linesAreCountedThroughMultiLineStringsAndComments() {
        let source = "a\n/* 1\n2 */ b\nlet s = \"\"\"\nx\n\"\"\"\nc"
        let lines = Lexer.tokens(source, language: .swift).map(\.line)
        #expect(lines == [1, 3, 4, 4, 4, 4, 7])
    }

    @Test func unterminatedStringsAndCommentsStopWithoutFailing() {
        #expect(lex("let s = \"open\nnext", .swift) == ["kw:let", "id:s", "sym:=", "str:\"open", "id:next"])
        #expect(lex("a /* never closed", .swift) == ["id:a"])
        #expect(lex("x = '''never closed", .python) == ["id:x", "sym:=", "str:'''never closed"])
    }

    @Test func deeplyNestedInterpolationDoesNotExhaustTheStack() {
        let deep = String(repeating: #""\("#, count: 200_000) + "x"
        let tokens = Lexer.tokens("let s = " + deep + "\nlet t = 1", language: .swift)
        #expect(tokens.count == 4 + 4)
        #expect(tokens[3].kind == .string)
        #expect(tokens.last?.line == 2)
    }

    @Test func pythonCommentsStringsAndDecorators() {
        let source = """
            @app.route("/x")  # comment with "quote"
            def f(a, *rest):
                return f"{a}" + r'\\d' + '''doc # not comment'''
            """
        #expect(
            lex(source, .python) == [
                "attr:@app.route", "sym:(", "str:\"/x\"", "sym:)", "kw:def", "id:f", "sym:(", "id:a", "sym:,", "sym:*", "id:rest",
                "sym:)", "sym::", "kw:return", "str:f\"{a}\"", "sym:+", "str:r'\\d'", "sym:+", "str:'''doc # not comment'''",
            ])
    }

    @Test func typeScriptTemplatesAndComments() {
        let source = "const s = `a ${b + `inner ${c}`} // not comment`; // comment\nlet t = 'x' /* c */"
        #expect(
            lex(source, .typescript) == [
                "kw:const", "id:s", "sym:=", "str:`a ${b + `inner ${c}`} // not comment`", "sym:;",
                "kw:let", "id:t", "sym:=", "str:'x'",
            ])
    }

    @Test func languagesFromFencesAndPaths() {
        #expect(SourceLanguage(fence: "Swift") == .swift)
        #expect(SourceLanguage(fence: "tsx") == .typescript)
        #expect(SourceLanguage(fence: "py") == .python)
        #expect(SourceLanguage(fence: "bash") == nil)
        #expect(SourceLanguage(path: "Sources/App/View.swift") == .swift)
        #expect(SourceLanguage(path: "web/app.jsx") == .typescript)
        #expect(SourceLanguage(path: "README.md") == nil)
        #expect(SourceLanguage(path: "a.b/Makefile") == nil)
    }
}
