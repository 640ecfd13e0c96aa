//! How some fields of the request bodies are read (`deserialize_with`): an object that
//! must be written as a JSON object, and a field whose `null` differs from its absence.

/// A JSON object deserialized as `T`: serde also takes a struct written as an array
/// (`[true, false]`), which the API document does not allow.
struct Object<T>(T);

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Object<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// `deserialize_with` for an optional nested object.
pub fn optional_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(<Option<Object<T>> as serde::Deserialize>::deserialize(d)?.map(|o| o.0))
}

/// `deserialize_with` telling an absent field (`None`, with `#[serde(default)]`) from
/// `null` (`Some(None)`).
pub fn nullable<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    <Option<T> as serde::Deserialize>::deserialize(d).map(Some)
}

/// `deserialize_with` for a list of objects.
pub fn objects<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(<Vec<Object<T>> as serde::Deserialize>::deserialize(d)?
        .into_iter()
        .map(|o| o.0)
        .collect())
}
