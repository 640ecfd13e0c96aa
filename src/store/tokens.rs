//! Access tokens that can be revoked: login sessions (the `sid` of a JWT) and personal
//! access tokens (only the SHA-256 of the secret is stored). Revoking deletes the row;
//! a token is valid only while its row and its user exist, which one query reads (a
//! join), so a request costs one round trip whatever its token.

use super::conn::lock_user;
use super::conn::transaction;
use diesel::prelude::*;

use super::schema::{access_tokens, users};
use super::{Store, StoreError};

/// The kind of a login session's row.
pub const SESSION: &str = "session";
/// The kind of a personal access token's row.
pub const PERSONAL: &str = "personal";

/// A token's row.
#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = access_tokens)]
pub struct TokenRow {
    pub id: String,
    pub user_id: String,
    /// [`SESSION`] or [`PERSONAL`].
    pub kind: String,
    pub name: Option<String>,
    pub secret_hash: Option<String>,
    /// Scopes separated by spaces.
    pub scopes: String,
    pub created_at: i64,
    pub expires_at: Option<i64>,
}

/// What a request learns of its token: which token, whose, what it may do.
#[derive(Clone, Debug, PartialEq, Eq, Queryable)]
pub struct TokenGrant {
    pub token_id: String,
    pub user_id: String,
    pub kind: String,
    pub scopes: String,
    pub expires_at: Option<i64>,
    /// The user's locale (for the language of the request's problems).
    pub locale: String,
}

type GrantColumns = (
    access_tokens::id,
    access_tokens::user_id,
    access_tokens::kind,
    access_tokens::scopes,
    access_tokens::expires_at,
    users::locale,
);

const GRANT: GrantColumns = (
    access_tokens::id,
    access_tokens::user_id,
    access_tokens::kind,
    access_tokens::scopes,
    access_tokens::expires_at,
    users::locale,
);

impl Store {
    /// Stores a new token (a session at login, a personal access token when created);
    /// the user's expired tokens are deleted in the same transaction. A token made by a
    /// login session (`made_by`) is stored only while that session still exists: the
    /// user's row is written first, as a password change does, so that a token created
    /// while the password changes is either revoked by the change or refused
    /// (`StoreError::UnknownUser`, as for a token whose user is gone).
    pub async fn create_access_token(
        &self,
        row: TokenRow,
        now: i64,
        made_by: Option<String>,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                if let Some(sid) = &made_by {
                    lock_user(c, &row.user_id)?;
                    let live: Option<String> = access_tokens::table
                        .filter(access_tokens::id.eq(sid))
                        .filter(access_tokens::user_id.eq(&row.user_id))
                        .select(access_tokens::id)
                        .first(c)
                        .optional()?;
                    if live.is_none() {
                        return Err(super::TxError::Store(StoreError::UnknownUser));
                    }
                }
                diesel::delete(
                    access_tokens::table
                        .filter(access_tokens::user_id.eq(&row.user_id))
                        .filter(access_tokens::expires_at.le(now)),
                )
                .execute(c)?;
                diesel::insert_into(access_tokens::table)
                    .values(&row)
                    .execute(c)
                    .map_err(|e| super::TxError::Store(super::user_reference(e)))?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// The session `id` of user `user_id`, when both still exist (one query).
    pub async fn session_grant(
        &self,
        id: String,
        user_id: String,
    ) -> Result<Option<TokenGrant>, StoreError> {
        self.run(move |c| {
            Ok(access_tokens::table
                .inner_join(users::table)
                .filter(access_tokens::id.eq(id))
                .filter(access_tokens::user_id.eq(user_id))
                .filter(access_tokens::kind.eq(SESSION))
                .filter(users::deleted_at.is_null())
                .select(GRANT)
                .first(c)
                .optional()?)
        })
        .await
    }

    /// The personal access token whose secret hashes to `secret_hash`, when it and its
    /// user still exist (one query).
    pub async fn personal_grant(
        &self,
        secret_hash: String,
    ) -> Result<Option<TokenGrant>, StoreError> {
        self.run(move |c| {
            Ok(access_tokens::table
                .inner_join(users::table)
                .filter(access_tokens::secret_hash.eq(secret_hash))
                .filter(access_tokens::kind.eq(PERSONAL))
                .filter(users::deleted_at.is_null())
                .select(GRANT)
                .first(c)
                .optional()?)
        })
        .await
    }

    /// Revokes token `id` of `user_id` (of `kind` when given); whether it existed.
    pub async fn revoke_access_token(
        &self,
        user_id: String,
        id: String,
        kind: Option<&'static str>,
    ) -> Result<bool, StoreError> {
        self.run(move |c| {
            let q = access_tokens::table
                .filter(access_tokens::user_id.eq(user_id))
                .filter(access_tokens::id.eq(id));
            let n = match kind {
                Some(k) => diesel::delete(q.filter(access_tokens::kind.eq(k))).execute(c)?,
                None => diesel::delete(q).execute(c)?,
            };
            Ok(n > 0)
        })
        .await
    }

    /// Revokes every login session of `user_id` but `except` (the session of a password
    /// change keeps working; `None` ends them all). Personal access tokens stay. Returns
    /// how many were revoked.
    pub async fn revoke_sessions(
        &self,
        user_id: String,
        except: Option<String>,
    ) -> Result<usize, StoreError> {
        self.run(move |c| {
            let q = access_tokens::table
                .filter(access_tokens::user_id.eq(user_id))
                .filter(access_tokens::kind.eq(SESSION));
            Ok(match except {
                Some(keep) => diesel::delete(q.filter(access_tokens::id.ne(keep))).execute(c)?,
                None => diesel::delete(q).execute(c)?,
            })
        })
        .await
    }

    /// A page of the personal access tokens of `user_id`, newest first, after the key
    /// `(created_at, id)` of the previous page's last row.
    pub async fn personal_tokens(
        &self,
        user_id: String,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<super::Page<TokenRow, (i64, String)>, StoreError> {
        self.run(move |c| {
            let mut q = access_tokens::table
                .filter(access_tokens::user_id.eq(user_id))
                .filter(access_tokens::kind.eq(PERSONAL))
                .into_boxed();
            if let Some((t, id)) = after {
                q = q.filter(
                    access_tokens::created_at.lt(t).or(access_tokens::created_at
                        .eq(t)
                        .and(access_tokens::id.lt(id))),
                );
            }
            let rows: Vec<TokenRow> = q
                .order((access_tokens::created_at.desc(), access_tokens::id.desc()))
                .limit(limit + 1)
                .select(TokenRow::as_select())
                .load(c)?;
            Ok(super::page::page_of(rows, limit, |r| {
                (r.created_at, r.id.clone())
            }))
        })
        .await
    }
}
