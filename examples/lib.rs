//! The runnable examples of `elicit` (see the README's table of examples). This library is
//! empty: each example is a target of this package, and the integration tests of the workspace's
//! root package compile the same sources to check what they send and answer.
