import Testing

@testable import SkillCheck

@Suite struct CodeSketchTests {
    @Test func declaredNamesAreMarkedAndVocabularyStaysLiteral() {
        let sketch = CodeSketch(
            """
            struct Card: View {
                @State var item: Item
                var body: some View { Text(item.name).onAppear { load() } }
            }
            """, language: .swift)
        #expect(
            sketch.stored
                == "struct §ICard : View { @State var §Iitem : Item var §Ibody : some View { Text ( §Iitem . name ) . onAppear { load ( ) } } }"
        )
    }

    @Test func parametersClosureParametersLoopsAndBindings() {
        let sketch = CodeSketch(
            """
            func f(for value: Int, _ other: String) { items.map { a, b in a } ; for row in rows { use($flag) } ; let flag = 1 }
            """, language: .swift)
        #expect(
            sketch.words == [
                "func", "§If", "(", "for", "§Ivalue", ":", "Int", ",", "_", "§Iother", ":", "String", ")", "{",
                "items", ".", "map", "{", "§Ia", ",", "§Ib", "in", "§Ia", "}", ";", "for", "§Irow", "in", "rows", "{",
                "use", "(", "§I$flag", ")", "}", ";", "let", "§Iflag", "=", "§N", "}",
            ])
    }

    @Test func stringsAndNumbersAreAbstracted() {
        #expect(CodeSketch(#"Text("Hi \(name)") ; x = 3.5"#, language: .swift).stored == "Text ( §S ) ; x = §N")
    }

    @Test func pythonDefinitionsAndAssignments() {
        let sketch = CodeSketch(
            """
            total = 0
            def add(x, y=1):
                return x + y + total
            """, language: .python)
        #expect(sketch.stored == "§Itotal = §N def §Iadd ( §Ix , §Iy = §N ) : return §Ix + §Iy + §Itotal")
    }

    @Test func storedRoundTrip() {
        let sketch = CodeSketch("let a = b.c(\"x\")", language: .swift)
        #expect(CodeSketch(stored: sketch.stored, language: .swift).words == sketch.words)
    }

    @Test func aBlockWithBothMarksSplitsIntoMistakeAndFix() {
        let split = CodeRecord.split(
            """
            protocol P {}
            // ❌ Wrong
            bad()
            // ✅ Right
            good()
            // ❌ Also wrong
            worse()
            """)
        #expect(split.bad == "protocol P {}\n// ❌ Wrong\nbad()\n// ❌ Also wrong\nworse()")
        #expect(split.good == "// ✅ Right\ngood()")
        #expect(CodeRecord.split("only()\n// ❌ bad").good == "")
    }
}
