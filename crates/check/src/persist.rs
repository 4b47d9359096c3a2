//! How the judge's and the spec's own types are written in a grade's
//! journal (see `connectz-grade`'s `journal`): a code as its number, a class as its
//! word.

/// `connectz::Code` as its number, 0 to 9.
pub mod code {
    use connectz::Code;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Writes the number.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(code: &Code, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(code.number())
    }

    /// Reads the number.
    ///
    /// # Errors
    /// Not a number 0 to 9.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let n = u8::deserialize(d)?;
        Code::from_number(n).ok_or_else(|| D::Error::custom(format!("no code {n}")))
    }
}

/// `connectz_spec::Class` as `defined` or `impl`.
pub mod class {
    use connectz_spec::Class;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Writes the word.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(class: &Class, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match class {
            Class::Defined => "defined",
            Class::Impl => "impl",
        })
    }

    /// Reads the word.
    ///
    /// # Errors
    /// Another word.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Class, D::Error> {
        match String::deserialize(d)?.as_str() {
            "defined" => Ok(Class::Defined),
            "impl" => Ok(Class::Impl),
            other => Err(D::Error::custom(format!("no class {other}"))),
        }
    }
}
