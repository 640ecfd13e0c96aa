//! A page of a list, as every list of the store returns it: the rows read with one more
//! than the limit, and the key to continue after the last one.

/// A page of a list: the rows and, when there are more, the key to continue after.
#[derive(Clone, Debug)]
pub struct Page<T, K> {
    pub rows: Vec<T>,
    pub next: Option<K>,
}

/// Splits `rows` (read with `limit + 1`) into a page and the key after its last row.
pub(super) fn page_of<T, K>(mut rows: Vec<T>, limit: i64, key: impl Fn(&T) -> K) -> Page<T, K> {
    let more = rows.len() as i64 > limit;
    rows.truncate(limit.max(0) as usize);
    let next = if more { rows.last().map(key) } else { None };
    Page { rows, next }
}
