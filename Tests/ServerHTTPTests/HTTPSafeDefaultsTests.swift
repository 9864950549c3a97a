import Testing

@testable import SkillServerHTTP

/// Issue 26's safe defaults: no open server off loopback without a token, no token file others
/// can read.
@Suite struct HTTPSafeDefaultsTests {
    @Test func aNonLoopbackBindNeedsATokenOrAnExplicitFlag() throws {
        for host in ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"] {
            #expect(HTTPAccessPolicy.bindRefusal(host: host, hasToken: false, insecure: false) == nil)
        }
        for host in ["0.0.0.0", "::", "192.168.1.10", "team.example"] {
            let refusal = try #require(HTTPAccessPolicy.bindRefusal(host: host, hasToken: false, insecure: false))
            #expect(refusal.hasPrefix("--http \(host) is reachable from other machines: give --token-file PATH"))
            #expect(HTTPAccessPolicy.bindRefusal(host: host, hasToken: true, insecure: false) == nil)
            #expect(HTTPAccessPolicy.bindRefusal(host: host, hasToken: false, insecure: true) == nil)
        }
    }

    @Test func aTokenFileOthersCanReadIsRefused() {
        #expect(HTTPAccessPolicy.tokenFileRefusal(path: "t", mode: 0o600) == nil)
        #expect(HTTPAccessPolicy.tokenFileRefusal(path: "t", mode: 0o400) == nil)
        #expect(
            HTTPAccessPolicy.tokenFileRefusal(path: "t", mode: 0o644)
                == "--token-file t is readable by other users (mode 644): run chmod 600 t")
        #expect(HTTPAccessPolicy.tokenFileRefusal(path: "t", mode: 0o640) != nil)
        #expect(HTTPAccessPolicy.tokenFileRefusal(path: "t", mode: 0o602) != nil)
    }
}
