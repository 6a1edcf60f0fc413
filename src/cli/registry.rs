//! `kraal registry pull`: the federation's rating list into this server's
//! registry, as the People page's button does it.

use chrono::Datelike;

use super::serve::{DatabaseArgs, OutboundArgs};

#[derive(Debug, clap::Subcommand)]
pub enum RegistryCommand {
    /// Pull the federation's rating list (its /people.csv) into the
    /// registry by federation id: people added, names and clubs refreshed,
    /// the federation's current ratings taken; all or nothing.
    Pull(PullArgs),
}

#[derive(Debug, clap::Args)]
pub struct PullArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    #[command(flatten)]
    pub outbound: OutboundArgs,
}

pub fn run(command: RegistryCommand) -> i32 {
    match command {
        RegistryCommand::Pull(args) => pull(args),
    }
}

fn pull(args: PullArgs) -> i32 {
    let pool = match args.db.open() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("kraal: {e}");
            return 2;
        }
    };
    let mut conn = match pool.get() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kraal: {e}");
            return 2;
        }
    };
    let fixed = args.outbound.federation_url.as_deref();
    let url = match crate::director::registry::federation_url(&mut conn, fixed) {
        Ok(Some(url)) => url,
        Ok(None) => {
            eprintln!(
                "kraal registry pull: no federation server is named: give --federation-url, or name it on the admin's Users page"
            );
            return 2;
        }
        Err(e) => {
            eprintln!("kraal: {e}");
            return 2;
        }
    };
    let this_year = chrono::Utc::now().year();
    let list = match crate::outbound::rating_list(args.outbound.policy(), &url, this_year) {
        Ok(list) => list,
        Err(e) => {
            eprintln!("kraal registry pull: {e}");
            return 1;
        }
    };
    match crate::director::commit(&mut conn, None, |w| {
        crate::director::registry::pull(w, &list)
    }) {
        Ok(pulled) => {
            println!("{pulled}");
            0
        }
        Err(e) => {
            eprintln!("kraal registry pull: {e}");
            1
        }
    }
}
