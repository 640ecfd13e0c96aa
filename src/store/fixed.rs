//! SQL text that is the same at every call, for the conditions and keys that diesel's
//! query builder cannot spell (literals that partial indexes need, correlated
//! subqueries). Unlike `diesel::dsl::sql`, which marks its statement as one not to keep,
//! these leave a statement cacheable: its text does not vary, its values are bound, so
//! that a connection prepares it once and Postgres plans it once instead of at every
//! request. Each text must be fixed (a constant, or built once): the statement cache
//! keeps one prepared statement per distinct text.

use std::marker::PhantomData;

use diesel::backend::Backend;
use diesel::expression::{is_aggregate, AppearsOnTable, Expression, SelectableExpression};
use diesel::expression::{TypedExpressionType, ValidGrouping};
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, HasSqlType, SqlType, Text};
use diesel::QueryResult;

/// A fixed SQL expression of type `ST`.
#[derive(Debug, Clone, Copy)]
pub struct Fixed<ST>(&'static str, PhantomData<ST>);

/// The fixed SQL expression `text`.
pub fn fixed<ST>(text: &'static str) -> Fixed<ST> {
    Fixed(text, PhantomData)
}

impl<ST> QueryId for Fixed<ST> {
    type QueryId = ();
    // no static id: two texts of one type must never share a cached statement (the
    // cache then keys them by their text)
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<ST: SqlType + TypedExpressionType> Expression for Fixed<ST> {
    type SqlType = ST;
}

impl<DB: Backend, ST> QueryFragment<DB> for Fixed<ST> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql(self.0);
        Ok(())
    }
}

impl<QS, ST: SqlType + TypedExpressionType> SelectableExpression<QS> for Fixed<ST> {}
impl<QS, ST: SqlType + TypedExpressionType> AppearsOnTable<QS> for Fixed<ST> {}
impl<ST> ValidGrouping<()> for Fixed<ST> {
    type IsAggregate = is_aggregate::Never;
}

/// A keyset condition `(<key>) <op> (k1[, k2], id)`: `head` is the fixed text up to and
/// including the opening of the values (`"(a, b, games.id) > ("`); the values are bound.
#[derive(Debug, Clone)]
pub struct After {
    head: &'static str,
    k1: i64,
    k2: Option<i64>,
    id: String,
}

/// The keyset condition `head` k1, [k2,] id `)`.
pub fn after(head: &'static str, k1: i64, k2: Option<i64>, id: String) -> After {
    After { head, k1, k2, id }
}

impl QueryId for After {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Expression for After {
    type SqlType = diesel::sql_types::Bool;
}

impl<DB> QueryFragment<DB> for After
where
    DB: Backend + HasSqlType<BigInt> + HasSqlType<Text>,
    i64: ToSql<BigInt, DB>,
    String: ToSql<Text, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql(self.head);
        out.push_bind_param::<BigInt, i64>(&self.k1)?;
        out.push_sql(", ");
        if let Some(k2) = &self.k2 {
            out.push_bind_param::<BigInt, i64>(k2)?;
            out.push_sql(", ");
        }
        out.push_bind_param::<Text, String>(&self.id)?;
        out.push_sql(")");
        Ok(())
    }
}

impl<QS> SelectableExpression<QS> for After {}
impl<QS> AppearsOnTable<QS> for After {}
impl ValidGrouping<()> for After {
    type IsAggregate = is_aggregate::Never;
}
