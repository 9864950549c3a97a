import Foundation

/* A comment that mentions @StateObject private var model = Model() and DispatchSemaphore(value: 0).wait() */
let pattern = #"@State var \w+: \w+"#
let help = """
    Don't write `@Published` inside an @Observable class, and never call
    DispatchSemaphore(value: 0) then .wait() from a Task.
    """
let sample = "NavigationLink(destination: Detail()) { Text(\"x\") }"
print(pattern, help, sample)
