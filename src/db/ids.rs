//! How the database stores the ids of [`crate::ids`]: each as the
//! `Integer` it wraps, bound and read on both backends through the
//! integer's own diesel impls, so a query filters by an id
//! (`players::tournament_id.eq(tid)`), and a `Queryable` or `Insertable`
//! row holds one, as it would the bare number.

use crate::ids::{
    EntryId, GameId, PairingId, PersonId, RoundId, RoundNo, SeasonId, TeamId, TournamentId, UserId,
};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{Integer, Nullable, SingleValue};

macro_rules! stored_as_integer {
    ($($id:ident),+ $(,)?) => {$(
        impl AsExpression<Integer> for $id {
            type Expression = <i32 as AsExpression<Integer>>::Expression;

            fn as_expression(self) -> Self::Expression {
                AsExpression::<Integer>::as_expression(self.0)
            }
        }

        impl AsExpression<Integer> for &$id {
            type Expression = <i32 as AsExpression<Integer>>::Expression;

            fn as_expression(self) -> Self::Expression {
                AsExpression::<Integer>::as_expression(self.0)
            }
        }

        impl AsExpression<Nullable<Integer>> for $id {
            type Expression = <i32 as AsExpression<Nullable<Integer>>>::Expression;

            fn as_expression(self) -> Self::Expression {
                AsExpression::<Nullable<Integer>>::as_expression(self.0)
            }
        }

        impl AsExpression<Nullable<Integer>> for &$id {
            type Expression = <i32 as AsExpression<Nullable<Integer>>>::Expression;

            fn as_expression(self) -> Self::Expression {
                AsExpression::<Nullable<Integer>>::as_expression(self.0)
            }
        }

        impl<DB: Backend> ToSql<Integer, DB> for $id
        where
            i32: ToSql<Integer, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                ToSql::<Integer, DB>::to_sql(&self.0, out)
            }
        }

        impl<DB: Backend> ToSql<Nullable<Integer>, DB> for $id
        where
            i32: ToSql<Integer, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                ToSql::<Integer, DB>::to_sql(&self.0, out)
            }
        }

        impl<DB: Backend> FromSql<Integer, DB> for $id
        where
            i32: FromSql<Integer, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<$id> {
                i32::from_sql(bytes).map($id)
            }
        }

        impl<DB: Backend, ST: SingleValue> Queryable<ST, DB> for $id
        where
            $id: FromSql<ST, DB>,
        {
            type Row = $id;

            fn build(row: $id) -> deserialize::Result<$id> {
                Ok(row)
            }
        }
    )+};
}

stored_as_integer!(
    TournamentId,
    EntryId,
    PersonId,
    TeamId,
    RoundNo,
    RoundId,
    PairingId,
    GameId,
    UserId,
    SeasonId,
);
