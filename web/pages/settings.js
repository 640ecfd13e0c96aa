// The settings page: the language and time zone, email notifications and reminders,
// web push on this device and the others, the deadline calendar, webhooks, sessions,
// and the account (address, password, data download, deletion).

import * as api from "../api.js";
import * as i18n from "../i18n.js";
import { t } from "../i18n.js";
import * as push from "../push.js";
import { el, field, busy, announce, fail, when } from "../ui.js";

/** @typedef {import("../ui.js").PageContext} PageContext */
/** @typedef {import("../types/api").components["schemas"]["UserView"]} UserView */
/** @typedef {import("../types/api").components["schemas"]["EmailSwitches"]} EmailSwitches */

/** The email event types in the settings (their names are `event.<type>`).
 * @param {string} type */
function eventName(type) {
  const key = `event.${type}`;
  const name = t(key);
  return name === key ? type : name;
}

/** The time zones the browser knows (IANA names), with `current` among them.
 * @param {string} current */
function timeZones(current) {
  /** @type {string[]} */
  let zones = [];
  try {
    zones = Intl.supportedValuesOf("timeZone");
  } catch {
    zones = [];
  }
  const all = new Set(["UTC", ...zones]);
  if (current) all.add(current);
  return [...all].sort();
}

/** Language and time zone: PATCH /v1/users/me {locale, time_zone}.
 * @param {PageContext} ctx @param {UserView} me */
function localeForm(ctx, me) {
  const lang = el(
    "select",
    { name: "locale", id: "set-locale" },
    ...i18n.LOCALES.map((l) => el("option", { value: l, selected: l === me.locale }, t(`locale.${l}`))),
  );
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = el(
    "select",
    { name: "time_zone", id: "set-zone" },
    ...timeZones(me.time_zone).map((z) => el("option", { value: z, selected: z === me.time_zone }, z.replace(/_/g, " "))),
  );
  const digest = el(
    "select",
    { name: "digest_hour", id: "set-digest" },
    el("option", { value: "", selected: me.digest_hour == null }, t("settings.digest-off")),
    ...Array.from({ length: 24 }, (_, h) => el("option", { value: String(h), selected: me.digest_hour === h }, t("settings.digest-at", { hour: String(h).padStart(2, "0") }))),
  );
  const bot = el("input", { type: "checkbox", name: "bot", id: "set-bot", checked: Boolean(me.bot) });
  const form = el(
    "form",
    { class: "card", "aria-labelledby": "h-locale" },
    el("h2", { id: "h-locale" }, t("settings.locale-title")),
    el("label", { class: "field", for: "set-locale" }, el("span", {}, t("settings.language")), lang),
    el("label", { class: "field", for: "set-zone" }, el("span", {}, t("settings.time-zone")), zone),
    el("p", { class: "meta" }, t("settings.zone-hint", { zone: browserZone || "UTC" })),
    el("label", { class: "field", for: "set-digest" }, el("span", {}, t("settings.digest")), digest),
    el("label", { class: "check", for: "set-bot" }, bot, ` ${t("settings.bot")}`),
    el("button", { type: "submit", class: "primary" }, t("settings.save-locale")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const body = {
      locale: String(f.get("locale")),
      time_zone: String(f.get("time_zone")),
      digest_hour: f.get("digest_hour") ? Number(f.get("digest_hour")) : null,
      bot: /** @type {HTMLInputElement} */ (bot).checked,
    };
    busy(form, async () => {
      /** @type {import("../types/api").components["schemas"]["UserView"]} */
      const u = await api.patch("/v1/users/me", body);
      await i18n.use(u.locale, { timeZone: u.time_zone, remember: true });
      ctx.go("/play/settings", { replace: true });
      announce(t("settings.locale-saved"));
    });
  });
  return form;
}

/**
 * The deadline calendar: make a secret address (shown once, to copy into a calendar
 * application), make a new one (the old stops working) or revoke it.
 * @param {import("../types/api").components["schemas"]["CalendarFeed"]} cal
 */
function calendarSection(cal) {
  const section = el(
    "section",
    { class: "card", "aria-labelledby": "h-calendar" },
    el("h2", { id: "h-calendar" }, t("calendar.title")),
    el("p", {}, t("calendar.text")),
  );
  const state = el("p", { id: "calendar-state" }, cal.active ? t("calendar.active", { when: when(cal.created_at) }) : t("calendar.none"));
  const out = el("div", { id: "calendar-url" });
  const make = el("button", { type: "button", class: "primary", id: "calendar-make" }, cal.active ? t("calendar.renew") : t("calendar.make"));
  const revoke = el("button", { type: "button", id: "calendar-revoke", hidden: !cal.active }, t("calendar.revoke"));
  make.addEventListener("click", async () => {
    make.disabled = true;
    try {
      /** @type {import("../types/api").components["schemas"]["CalendarFeed"]} */
      const c = await api.post("/v1/users/me/calendar", {});
      const input = el("input", { type: "text", readonly: true, value: c.url, id: "calendar-address", "aria-label": t("calendar.address") });
      out.replaceChildren(
        el("label", { class: "field", for: "calendar-address" }, el("span", {}, t("calendar.address")), input),
        el("p", { class: "meta" }, t("calendar.once")),
      );
      state.textContent = t("calendar.active", { when: when(c.created_at) });
      make.textContent = t("calendar.renew");
      revoke.hidden = false;
      announce(t("calendar.made"));
      /** @type {HTMLInputElement} */ (input).select();
    } catch (e) {
      fail(e);
    } finally {
      make.disabled = false;
    }
  });
  revoke.addEventListener("click", async () => {
    revoke.disabled = true;
    try {
      await api.del("/v1/users/me/calendar");
      out.replaceChildren();
      state.textContent = t("calendar.none");
      make.textContent = t("calendar.make");
      revoke.hidden = true;
      announce(t("calendar.revoked"));
    } catch (e) {
      fail(e);
    } finally {
      revoke.disabled = false;
    }
  });
  section.append(state, out, make, " ", revoke);
  return section;
}

/** The push notifications part of the settings: this device on or off, and each
 * device's switches per kind. @param {PageContext} ctx */
async function pushSection(ctx) {
  const card = el("section", { class: "card", id: "push", "aria-labelledby": "h-push" }, el("h2", { id: "h-push" }, t("push.title")));
  card.append(el("p", {}, t("push.intro")));
  if (!push.supported()) {
    card.append(el("p", { class: "meta" }, t("push.unsupported")));
    return card;
  }
  /** @type {[import("../types/api").components["schemas"]["PushSubscriptionList"], string | null]} */
  const [list, here] = await Promise.all([api.get("/v1/users/me/push-subscriptions?limit=50"), push.thisEndpoint()]);
  const mine = list.subscriptions.find((s) => s.endpoint === here);
  if (!mine) {
    const label = el("input", { id: "push-label", name: "label", maxlength: "64", value: t("push.label-default"), required: true });
    const form = el(
      "form",
      { class: "inline" },
      el("label", { class: "field", for: "push-label" }, el("span", {}, t("push.label")), label),
      el("button", { type: "submit", class: "primary" }, t("push.enable")),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      busy(form, async () => {
        await push.subscribeHere(/** @type {HTMLInputElement} */ (label).value.trim(), push.KINDS);
        ctx.go("/play/settings", { replace: true });
        announce(t("push.enabled"));
      });
    });
    card.append(form);
  }
  card.append(el("h3", {}, t("push.devices")));
  if (!list.subscriptions.length) card.append(el("p", { class: "meta" }, t("push.none")));
  for (const s of list.subscriptions) {
    const isHere = s.endpoint === here;
    const name = isHere ? t("push.this-device", { label: s.label }) : s.label;
    const boxes = push.KINDS.map((k) =>
      el("label", { class: "check" }, el("input", { type: "checkbox", name: k, checked: s.kinds.includes(k) }), ` ${t(`push.kind.${k}`)}`),
    );
    const form = el(
      "form",
      { class: "device", "data-subscription": s.id },
      el("fieldset", {}, el("legend", {}, t("push.kinds", { label: name })), ...boxes),
      el("button", { type: "submit" }, t("settings.save")),
      el("button", { type: "button", class: "danger", "data-remove": "1" }, t("push.remove")),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const kinds = push.KINDS.filter((k) => /** @type {HTMLInputElement} */ (form.querySelector(`input[name=${k}]`)).checked);
      busy(form, async () => {
        await push.setKinds(s.id, kinds);
        announce(t("push.saved", { label: s.label }));
      });
    });
    form.querySelector("[data-remove]")?.addEventListener("click", () => {
      busy(form, async () => {
        await push.unsubscribe(s.id, isHere);
        ctx.go("/play/settings", { replace: true });
        announce(t("push.removed", { label: s.label }));
      });
    });
    card.append(form);
  }
  return card;
}

/** @param {import("../ui.js").PageContext} ctx */
export async function settingsPage(ctx) {
  ctx.main.append(el("h1", {}, t("settings.title")));
  /** @type {[import("../types/api").components["schemas"]["NotificationSettings"], import("../types/api").components["schemas"]["UserView"]]} */
  const [settings, me] = await Promise.all([api.get("/v1/users/me/notifications"), api.get("/v1/users/me")]);

  ctx.main.append(localeForm(ctx, me));

  const boxes = /** @type {(keyof EmailSwitches)[]} */ (Object.keys(settings.email)).map((type) =>
    el(
      "label",
      { class: "check" },
      el("input", { type: "checkbox", name: type, checked: settings.email[type] }),
      ` ${eventName(type)}`,
    ),
  );
  const reminders = el("input", {
    type: "text",
    name: "reminder_hours",
    id: "set-reminders",
    inputmode: "numeric",
    value: (settings.reminder_hours || []).join(", "),
    "aria-describedby": "set-reminders-hint",
  });
  const notif = el(
    "form",
    { class: "card", "aria-labelledby": "h-email" },
    el("h2", { id: "h-email" }, t("settings.email-title")),
    el("p", {}, t("settings.email-to", { email: me.email })),
    el("fieldset", {}, el("legend", {}, t("settings.email-when")), ...boxes),
    el("label", { class: "field", for: "set-reminders" }, el("span", {}, t("settings.reminders")), reminders),
    el("p", { class: "meta", id: "set-reminders-hint" }, t("settings.reminders-hint")),
    el("button", { type: "submit", class: "primary" }, t("settings.save")),
  );
  notif.addEventListener("submit", (ev) => {
    ev.preventDefault();
    /** @type {Record<string, boolean>} */
    const email = {};
    notif.querySelectorAll("input[type=checkbox]").forEach((i) => {
      const input = /** @type {HTMLInputElement} */ (i);
      email[input.name] = input.checked;
    });
    const text = /** @type {HTMLInputElement} */ (reminders).value.trim();
    const hours = text ? text.split(/[\s,;]+/).filter(Boolean).map(Number) : [];
    busy(notif, async () => {
      /** @type {import("../types/api").components["schemas"]["NotificationSettings"]} */
      const saved = await api.patch("/v1/users/me/notifications", { email, reminder_hours: hours });
      /** @type {HTMLInputElement} */ (reminders).value = saved.reminder_hours.join(", ");
      announce(t("settings.email-saved"));
    });
  });
  ctx.main.append(notif);
  ctx.main.append(await pushSection(ctx));

  ctx.main.append(calendarSection(await api.get("/v1/users/me/calendar")));

  const v = me.vacation;
  const vac = el("section", { class: "card", "aria-labelledby": "h-vac" }, el("h2", { id: "h-vac" }, t("vacation.title")));
  if (v) vac.append(el("p", {}, t("vacation.days-left", { left: v.days_left, count: v.days_per_year })));
  const onVacation = v && (v.until || v.until_move);
  if (onVacation) {
    vac.append(
      el(
        "p",
        {},
        v.until
          ? t(v.until_move ? "vacation.until-or-move" : "vacation.until", { until: when(v.until) })
          : t("vacation.until-move"),
      ),
    );
    if (v.days_reserved) vac.append(el("p", {}, t("vacation.reserved", { days: v.days_reserved })));
    const end = el("button", { type: "button" }, t("vacation.end"));
    end.addEventListener("click", async () => {
      end.disabled = true;
      try {
        await api.del("/v1/users/me/vacation");
        announce(t("vacation.ended"));
        ctx.go("/play/settings", { replace: true });
      } catch (e) {
        end.disabled = false;
        fail(e);
      }
    });
    vac.append(end);
  } else {
    const form = el(
      "form",
      {},
      field(t("vacation.until-field"), { type: "datetime-local", name: "until" }),
      el("button", { type: "submit" }, t("vacation.start")),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const until = String(new FormData(form).get("until") || "");
      const body = until ? { until: new Date(until).toISOString().replace(/\.\d{3}Z$/, "Z") } : {};
      busy(form, async () => {
        await api.post("/v1/users/me/vacation", body);
        announce(t("vacation.started"));
        ctx.go("/play/settings", { replace: true });
      });
    });
    vac.append(form);
  }
  ctx.main.append(vac);

  const sessions = el(
    "section",
    { class: "card", "aria-labelledby": "h-sessions" },
    el("h2", { id: "h-sessions" }, t("sessions.title")),
    el("p", {}, t("sessions.text")),
  );
  const here = el("button", { type: "button" }, t("sessions.logout"));
  const everywhere = el("button", { type: "button" }, t("sessions.everywhere"));
  for (const [button, all] of /** @type {[HTMLButtonElement, boolean][]} */ ([[here, false], [everywhere, true]])) {
    button.addEventListener("click", async () => {
      here.disabled = everywhere.disabled = true;
      await api.logOutOnServer(all);
      announce(all ? t("sessions.logged-out-everywhere") : t("nav.logged-out"));
      ctx.go("/play/login");
    });
  }
  sessions.append(here, " ", everywhere);
  ctx.main.append(sessions);
  accountSection(ctx, me);
}

/** The account part of the settings: address, password, data download, deletion.
 * @param {PageContext} ctx @param {UserView} me */
function accountSection(ctx, me) {
  const sec = el("section", { class: "card", "aria-labelledby": "h-account" }, el("h2", { id: "h-account" }, t("account.title")));
  sec.append(
    el(
      "p",
      {},
      me.email_verified
        ? t("account.confirmed", { email: me.email })
        : t("account.unconfirmed", { email: me.email }),
    ),
  );
  if (!me.email_verified) {
    const resend = el("button", { type: "button" }, t("account.resend"));
    resend.addEventListener("click", async () => {
      resend.disabled = true;
      try {
        await api.post("/v1/users/me/email/verification", {});
        announce(t("account.resent"));
      } catch (e) {
        fail(e);
      } finally {
        resend.disabled = false;
      }
    });
    sec.append(resend);
  }

  const email = el(
    "form",
    { "aria-labelledby": "h-change-email" },
    el("h3", { id: "h-change-email" }, t("account.change-email")),
    field(t("field.new-email"), { name: "email", type: "email", autocomplete: "email", required: true }),
    field(t("field.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
    el("button", { type: "submit" }, t("account.change-email")),
  );
  email.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(email);
    busy(email, async () => {
      await api.post("/v1/users/me/email", { email: String(f.get("email")).trim(), password: String(f.get("password")) });
      announce(t("account.email-changed"));
      ctx.go("/play/settings", { replace: true });
    });
  });

  const pw = el(
    "form",
    { "aria-labelledby": "h-change-pw" },
    el("h3", { id: "h-change-pw" }, t("account.change-password")),
    field(t("field.current-password"), { name: "current_password", type: "password", autocomplete: "current-password", required: true }),
    field(t("field.new-password"), {
      name: "new_password",
      type: "password",
      autocomplete: "new-password",
      required: true,
      minlength: 8,
    }),
    el("button", { type: "submit" }, t("account.change-password")),
  );
  pw.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(pw);
    busy(pw, async () => {
      await api.post("/v1/users/me/password", {
        current_password: String(f.get("current_password")),
        new_password: String(f.get("new_password")),
      });
      pw.reset();
      announce(t("account.password-changed"));
    });
  });

  const download = el("button", { type: "button" }, t("account.download"));
  download.addEventListener("click", async () => {
    download.disabled = true;
    try {
      /** @type {import("../types/api").components["schemas"]["AccountExportView"]} */
      const data = await api.get("/v1/users/me/export");
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const a = el("a", { href: URL.createObjectURL(blob), download: "tilepost-export.json" });
      a.click();
      URL.revokeObjectURL(a.getAttribute("href") || "");
      announce(t("account.downloaded"));
    } catch (e) {
      fail(e);
    } finally {
      download.disabled = false;
    }
  });
  const data = el("div", {}, el("h3", {}, t("account.data")), el("p", {}, t("account.data-text")), download);

  const del = el(
    "form",
    { "aria-labelledby": "h-delete" },
    el("h3", { id: "h-delete" }, t("account.delete")),
    el(
      "p",
      {},
      t("account.delete-text"),
    ),
    field(t("field.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "sure", required: true }), " " + t("account.delete-sure")),
    el("button", { type: "submit", class: "danger" }, t("account.delete-submit")),
  );
  del.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(del);
    busy(del, async () => {
      await api.del("/v1/users/me", { password: String(f.get("password")) });
      api.logout();
      announce(t("account.deleted"));
      ctx.go("/play/login", { replace: true });
    });
  });
  sec.append(email, pw, data, del);
  ctx.main.append(sec);
}
