//! Integration tests, UI tests, benches and examples of the elicit workspace.
