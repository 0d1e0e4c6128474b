/// The JSON Schema draft a settings schema is written in.
///
/// Both say the same of a file; they differ in keywords only. Draft 2020-12 keeps definitions
/// under `$defs` and lets `$ref` sit beside other keywords; draft-07 keeps them under
/// `definitions` and ignores every keyword beside a `$ref`, so there each such `$ref` moves
/// into an `allOf`.
public enum JSONSchemaDraft: String, Sendable, CaseIterable {
    /// Draft-07 (`http://json-schema.org/draft-07/schema#`), which most editors implement.
    case draft7 = "7"
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`), the current draft.
    case draft2020 = "2020-12"
}
