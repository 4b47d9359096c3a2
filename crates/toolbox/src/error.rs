//! One error type for `cz`: what was being done, and why it failed.

use std::fmt;

/// An error of a `cz` command: what it was doing, and the cause.
#[derive(Debug)]
pub struct Error {
    what: String,
    cause: Option<Box<dyn std::error::Error + Send + Sync>>,
}

/// A `cz` result.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error that is its own explanation.
    pub fn new(what: impl Into<String>) -> Error {
        Error {
            what: what.into(),
            cause: None,
        }
    }
}

impl Error {
    /// An error shown by its own words (a parse error, a refusal).
    pub fn shown(e: impl fmt::Display) -> Error {
        Error::new(e.to_string())
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::shown(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cause {
            Some(cause) => write!(f, "{}: {cause}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.as_deref().map(|e| e as _)
    }
}

impl From<String> for Error {
    fn from(what: String) -> Error {
        Error::new(what)
    }
}

impl From<&str> for Error {
    fn from(what: &str) -> Error {
        Error::new(what)
    }
}

/// Adds what was being done to an error.
pub trait Context<T> {
    /// The error, said to have happened while doing `what`.
    fn context(self, what: impl Into<String>) -> Result<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl Into<String>) -> Result<T> {
        self.map_err(|e| Error {
            what: what.into(),
            cause: Some(Box::new(e)),
        })
    }
}
