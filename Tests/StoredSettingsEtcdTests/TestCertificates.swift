import Foundation

/// A CA, a server certificate for 127.0.0.1 and localhost, and a client certificate, made
/// with the `openssl` command in `folder` (PEM files, EC P-256 keys, valid for two days).
struct TestCertificates: Sendable {
    let folder: URL

    var caFile: String { path("ca.pem") }
    var serverCertificateFile: String { path("server.pem") }
    var serverKeyFile: String { path("server.key") }
    var clientCertificateFile: String { path("client.pem") }
    var clientKeyFile: String { path("client.key") }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Makes the files in `folder`, which must exist.
    static func make(in folder: URL) async throws -> TestCertificates {
        let certificates = TestCertificates(folder: folder)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await openssl(
            ["req", "-x509"] + key + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=test CA"],
            in: folder)
        for (name, usage, names) in [
            ("server", "serverAuth,clientAuth", "subjectAltName=IP:127.0.0.1,DNS:localhost\n"),
            ("client", "clientAuth", ""),
        ] {
            try Data("\(names)extendedKeyUsage=\(usage)\n".utf8).write(to: folder.appendingPathComponent("\(name).ext"))
            try await openssl(
                ["req"] + key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)"], in: folder)
            try await openssl(
                [
                    "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial",
                    name == "server" ? "2" : "3", "-days", "2", "-out", "\(name).pem", "-extfile", "\(name).ext",
                ], in: folder)
        }
        return certificates
    }

    private static func openssl(_ arguments: [String], in folder: URL) async throws {
        let run = try await EtcdProgram.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec openssl \"$@\"", folder.path] + arguments)
        guard run.exitCode == 0 else {
            throw EtcdCluster.Failure(description: "openssl \(arguments.joined(separator: " ")) failed: \(run.errors)")
        }
    }
}
