//! `kraal serve` and the account commands for scripted installs.

use crate::refusal::{Refusal, Thing};
use std::io::{BufRead, IsTerminal};
use std::net::TcpListener;

use crate::db::users::{self, Role};
use crate::db::{auth as db_auth, Database, DbError};
use crate::{accounts, web};

/// The database used when none is named: a SQLite file in the working folder.
pub const DEFAULT_DATABASE: &str = "kraal.db";

/// Where the server listens when not told.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// Where the data lives (shared by every subcommand that touches it).
#[derive(Debug, Default, clap::Args)]
pub struct DatabaseArgs {
    /// sqlite://FILE, a path to an existing SQLite file, or postgres://USER:PASSWORD@HOST/NAME
    #[arg(long = "database", env = "DATABASE_URL")]
    pub database: Option<String>,
}

impl DatabaseArgs {
    pub fn open(&self) -> Result<crate::db::Pool, DbError> {
        let db = match &self.database {
            Some(url) => Database::parse(url, false)?,
            None => Database::parse(DEFAULT_DATABASE, true)?,
        };
        db.open(8)
    }
}

/// Arguments of `kraal serve`.
#[derive(Debug, clap::Args, Default)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, env = "KRAAL_BIND", default_value = DEFAULT_BIND)]
    pub bind: String,
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// Mark cookies Secure: set this when Kraal is served over HTTPS.
    #[arg(long, env = "KRAAL_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Worker threads (default: one per core).
    #[arg(long, env = "KRAAL_WORKERS")]
    pub workers: Option<usize>,
    /// Glicko-2's τ, which bounds how fast a volatility moves; Glickman
    /// advises 0.3 to 1.2.
    #[arg(long, env = "KRAAL_RATING_TAU", default_value_t = 0.5, value_parser = tau)]
    pub rating_tau: f64,
    /// How this server names itself on the servers it publishes events to.
    #[arg(long, env = "KRAAL_SITE_NAME", default_value = "Kraal")]
    pub site_name: String,
    /// This server's own address, for the link back from a published copy.
    #[arg(long, env = "KRAAL_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// A reverse proxy whose `Forwarded` or `X-Forwarded-For` names the
    /// client (an address or a network, `10.0.0.0/8`); may be given
    /// several times or comma-separated. Requests from any other address
    /// are counted by their own address, whatever they claim.
    #[arg(
        long = "trusted-proxy",
        env = "KRAAL_TRUSTED_PROXY",
        value_delimiter = ',',
        value_parser = trusted_proxy
    )]
    pub trusted_proxy: Vec<web::limit::Network>,
    #[command(flatten)]
    pub outbound: OutboundArgs,
}

fn trusted_proxy(text: &str) -> Result<web::limit::Network, String> {
    web::limit::Network::parse(text)
}

/// Where this server's own requests may go (pulling the federation's list).
#[derive(Debug, Default, clap::Args)]
pub struct OutboundArgs {
    /// The federation's Kraal this server pulls its rating list from
    /// (`http(s)://host[:port][/base]`); wins over the admin page's setting.
    #[arg(long, env = "KRAAL_FEDERATION_URL", value_parser = federation_url)]
    pub federation_url: Option<String>,
    /// Let this server's requests go to this machine and private networks
    /// (a federation server on the venue's own network); off, they are
    /// refused, so that no form turns the server into a probe of its own
    /// network.
    #[arg(long, env = "KRAAL_PUBLISH_ALLOW_PRIVATE")]
    pub publish_allow_private: bool,
}

impl OutboundArgs {
    pub fn policy(&self) -> crate::outbound::Policy {
        crate::outbound::Policy {
            allow_private: self.publish_allow_private,
        }
    }
}

fn federation_url(text: &str) -> Result<String, String> {
    crate::remote::check_address("federation_url", text).map_err(|e| e.to_string())
}

fn tau(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if (0.2..=1.2).contains(&t) => Ok(t),
        Ok(t) => Err(format!("τ {t} is outside 0.2..1.2")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

pub fn serve(args: ServeArgs) -> i32 {
    let pool = match args.db.open() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("kraal: {e}");
            return 2;
        }
    };
    let listener = match TcpListener::bind(&args.bind) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("kraal: cannot listen on {}: {e}", args.bind);
            return 2;
        }
    };
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let needs_setup = pool
        .get()
        .ok()
        .and_then(|mut c| users::count(&mut c).ok())
        .is_some_and(|n| n == 0);
    println!("Kraal is serving on http://{}", args.bind);
    if needs_setup {
        println!(
            "No accounts yet: open http://{}/setup to create the first admin.",
            args.bind
        );
    }
    web::publisher::start(
        pool.clone(),
        web::publisher::Venue {
            name: args.site_name.clone(),
            url: args.public_url.clone(),
        },
        args.outbound.policy(),
    );
    let mut state = web::AppState::new(pool, args.secure_cookies);
    state.outbound = args.outbound.policy();
    state.federation_url = args.outbound.federation_url.clone();
    state.limits = web::limit::Limiter::trusting(args.trusted_proxy.clone());
    state.ratings = std::sync::Arc::new(crate::director::ratings::Ratings::new(
        crate::rating::Settings {
            tau: args.rating_tau,
        },
    ));
    let live = state.live.clone();
    let result = actix_web::rt::System::new().block_on(async move {
        let server = web::server(state, listener, workers)?;
        let handle = server.handle();
        actix_web::rt::spawn(async move {
            stop_signal().await;
            // Open live pages are not requests under way: their streams
            // end now, and the requests under way finish (up to 30 s).
            live.stop();
            handle.stop(true).await;
        });
        server.await
    });
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kraal: the server stopped: {e}");
            1
        }
    }
}

/// Waits for SIGTERM (or Ctrl-C).
async fn stop_signal() {
    let ctrl_c = Box::pin(async {
        let _ = actix_web::rt::signal::ctrl_c().await;
    });
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            let term = Box::pin(async move {
                term.recv().await;
            });
            futures_util::future::select(term, ctrl_c).await;
            return;
        }
    }
    ctrl_c.await;
}

/// Arguments of `kraal user add`.
#[derive(Debug, clap::Args)]
pub struct UserAddArgs {
    /// The new account's name.
    pub name: String,
    /// Make an admin.
    #[arg(long, conflicts_with = "referee", required_unless_present = "referee")]
    pub admin: bool,
    /// Make a referee.
    #[arg(long)]
    pub referee: bool,
    #[command(flatten)]
    pub db: DatabaseArgs,
}

/// Creates an account; the password is the first line of standard input.
pub fn user_add(args: UserAddArgs) -> i32 {
    let name = match users::check_name(&args.name) {
        Ok(n) => n,
        Err(m) => {
            eprintln!("kraal: {m}");
            return 2;
        }
    };
    if std::io::stdin().is_terminal() {
        eprintln!("Password for {name} (one line):");
    }
    let mut password = String::new();
    if let Err(e) = std::io::stdin().lock().read_line(&mut password) {
        eprintln!("kraal: cannot read the password: {e}");
        return 2;
    }
    let password = password.trim_end_matches(['\n', '\r']);
    if let Err(m) = accounts::check_new_password(password) {
        eprintln!("kraal: {m}");
        return 2;
    }
    let role = if args.admin {
        Role::Admin
    } else {
        Role::Referee
    };
    let result = (|| -> Result<users::User, DbError> {
        let pool = args.db.open()?;
        let mut conn = pool.get()?;
        let hash = accounts::hash_password(password).map_err(DbError::Setup)?;
        crate::director::commit(&mut conn, None, |w| {
            crate::director::users::create(w, &name, role, &hash)
        })
    })();
    match result {
        Ok(u) => {
            println!("created {} {} (id {})", u.role, u.name, u.id);
            0
        }
        Err(e) => {
            eprintln!("kraal: {e}");
            1
        }
    }
}

/// Arguments of `kraal user publisher`.
#[derive(Debug, clap::Args)]
pub struct PublisherArgs {
    /// The account's name.
    pub name: String,
    /// Take the right away again.
    #[arg(long)]
    pub revoke: bool,
    #[command(flatten)]
    pub db: DatabaseArgs,
}

/// Allows an account to publish events here (`PUT /api/v1/published/...`).
pub fn user_publisher(args: PublisherArgs) -> i32 {
    let result = (|| -> Result<users::User, DbError> {
        let pool = args.db.open()?;
        let mut conn = pool.get()?;
        let user = users::find_by_name(&mut conn, &args.name)?
            .ok_or(DbError::Refused(Refusal::NotFound(Thing::User)))?;
        crate::director::commit(&mut conn, None, |w| {
            crate::director::users::allow_publishing(w, user.id, !args.revoke)
        })
    })();
    match result {
        Ok(u) if args.revoke => {
            println!("{} may no longer publish events here", u.name);
            0
        }
        Ok(u) => {
            println!("{} may publish events here", u.name);
            0
        }
        Err(e) => {
            eprintln!("kraal: {e}");
            1
        }
    }
}

/// Arguments of `kraal token create`.
#[derive(Debug, clap::Args)]
pub struct TokenCreateArgs {
    /// The account the token acts as.
    pub user: String,
    /// What the token is for.
    #[arg(long, default_value = "command line")]
    pub label: String,
    #[command(flatten)]
    pub db: DatabaseArgs,
}

/// Creates an API token and prints it (the only time it is shown).
pub fn token_create(args: TokenCreateArgs) -> i32 {
    let result = (|| -> Result<String, DbError> {
        let pool = args.db.open()?;
        let mut conn = pool.get()?;
        let user = users::find_by_name(&mut conn, args.user.trim())?
            .ok_or_else(|| DbError::Setup(format!("no user named '{}'", args.user.trim())))?;
        let token = accounts::new_token();
        db_auth::create_token(
            &mut conn,
            user.id,
            &args.label,
            &accounts::token_digest(&token),
        )?;
        Ok(token)
    })();
    match result {
        Ok(token) => {
            println!("{token}");
            0
        }
        Err(e) => {
            eprintln!("kraal: {e}");
            1
        }
    }
}

/// Arguments of `kraal migrate`.
#[derive(Debug, clap::Args)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
}

/// Creates or upgrades the database and exits.
pub fn migrate(args: MigrateArgs) -> i32 {
    match args.db.open() {
        Ok(_) => {
            println!("the database is up to date");
            0
        }
        Err(e) => {
            eprintln!("kraal: {e}");
            2
        }
    }
}

/// Arguments of `kraal backup`.
#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// The file to write the copy to (it must not exist yet).
    pub file: std::path::PathBuf,
    #[command(flatten)]
    pub db: DatabaseArgs,
}

/// Writes a consistent copy of a SQLite database, safe while the server
/// runs (SQLite's `VACUUM INTO` reads one snapshot). A PostgreSQL database
/// is backed up with `pg_dump` (see the README).
pub fn backup(args: BackupArgs) -> i32 {
    if args.file.exists() {
        eprintln!(
            "kraal: {} already exists: choose a new file for the backup",
            args.file.display()
        );
        return 2;
    }
    let result = (|| -> Result<(), DbError> {
        let pool = args.db.open()?;
        let mut conn = pool.get()?;
        crate::db::backup_into(&mut conn, &args.file)
    })();
    match result {
        Ok(()) => {
            println!("backed up to {}", args.file.display());
            0
        }
        Err(e) => {
            eprintln!("kraal: {e}");
            1
        }
    }
}
