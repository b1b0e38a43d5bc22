/**
 * Service tokens of the browser core. Every dependency is injected explicitly with `@inject(TOKEN)`
 * (Vite does not emit decorator metadata). Interfaces live beside their tokens; implementations elsewhere.
 */
import type { Observable, ObservableInput } from 'rxjs';
import type { ComponentType, LazyExoticComponent } from 'react';
import type { CallDef, CallRequest, CallResponse, Profile, RouteDef, SiteInfo } from '../contract';

export const TOKENS = {
  Storage: Symbol.for('core.Storage'),
  Notifier: Symbol.for('core.Notifier'),
  Navigation: Symbol.for('core.Navigation'),
  TokenStore: Symbol.for('core.TokenStore'),
  ApiClient: Symbol.for('core.ApiClient'),
  AuthService: Symbol.for('core.AuthService'),
  SiteService: Symbol.for('core.SiteService'),
  ThemeService: Symbol.for('core.ThemeService'),
  PollingService: Symbol.for('core.PollingService'),
  UploadService: Symbol.for('core.UploadService'),
  CommandRegistry: Symbol.for('core.CommandRegistry'),
  PanelRegistry: Symbol.for('core.PanelRegistry'),
  RouteRegistry: Symbol.for('core.RouteRegistry'),
  /** Which script editor has the cursor, and whether AI writing is there (script-editor/editor-state.ts). */
  ScriptEditorState: Symbol.for('core.ScriptEditorState'),
  HostInfo: Symbol.for('core.HostInfo'),
  /** The core services a plugin's state service uses, as one bundle (ScreenServices). */
  ScreenServices: Symbol.for('core.ScreenServices'),
  /** Contribution points: bound many times, collected as arrays (empty when none). */
  CommandContribution: Symbol.for('contrib.Command'),
  PanelContribution: Symbol.for('contrib.Panel'),
  TopBarContribution: Symbol.for('contrib.TopBar'),
  DialogContribution: Symbol.for('contrib.Dialog'),
} as const;

export interface Storage {
  get<T>(key: string, fallback: T): T;
  set(key: string, value: unknown): void;
  remove(key: string): void;
  /** Removes every key that starts with `prefix`. */
  removeAll(prefix: string): void;
}

export type Intent = 'primary' | 'success' | 'warning' | 'danger' | 'none';
export interface ToastOptions {
  /** How long it stays, in ms (a message tied to a page that is about to go, e.g. 登录成功 before the redirect). */
  timeout?: number;
  /** Ends what the toasts before it said (登录成功 after 账号或密码错误): they are dismissed first. */
  clearOthers?: boolean;
}
export interface Notifier {
  success(message: string, options?: ToastOptions): void;
  info(message: string, options?: ToastOptions): void;
  warn(message: string, options?: ToastOptions): void;
  error(message: string, options?: ToastOptions): void;
}

export interface Location {
  path: string;
  query: Record<string, string>;
}
export interface Navigation {
  readonly location$: Observable<Location>;
  readonly current: Location;
  /** Opens `path`; when the address already shows it, emits it again so the workbench reopens or focuses its page. */
  navigate(path: string, query?: Record<string, string | number | undefined>, options?: { replace?: boolean }): void;
  /** No page is open (the last tab closed): the address drops its route and location$ emits `{ path: '' }`. */
  clear(): void;
  /** `path?query` of the current location, for redirect targets. */
  href(location?: Location): string;
}

export interface TokenStore {
  readonly token$: Observable<string | null>;
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

export interface CallOptions {
  /** Do not toast code-1 errors (the caller shows them its own way). */
  silent?: boolean;
  signal?: AbortSignal;
}
export interface ApiClient {
  call<C extends CallDef>(call: C, params?: CallRequest<C>, options?: CallOptions): Promise<CallResponse<C>>;
}

export interface AuthService {
  readonly profile$: Observable<Profile | null>;
  readonly loggedIn$: Observable<boolean>;
  /** `captcha` once the server has asked for it (MSG.captchaRequired): the id and answer of account.captcha. */
  login(username: string, password: string, captcha?: { captcha_id: string; captcha: string }): Promise<void>;
  logout(): Promise<void>;
  changePassword(input: { old_password: string; password: string; confirm: string }): Promise<void>;
  refreshProfile(): Promise<void>;
  /** The server said the session is gone (code 100): forget it locally. */
  expire(): void;
}

export interface SiteService {
  readonly site$: Observable<SiteInfo | null>;
  load(): Promise<void>;
}

export type Theme = 'dark' | 'light';
export interface ThemeService {
  readonly theme$: Observable<Theme>;
  readonly current: Theme;
  toggle(): void;
  set(theme: Theme): void;
}

export interface PollingService {
  /**
   * Calls `fetch` now and every `intervalMs` while `keepGoing(result)` holds and until `stop$` emits
   * (a panel's close). Errors do not stop polling; the next tick tries again.
   */
  poll<T>(fetch: () => ObservableInput<T>, options: { intervalMs: number; keepGoing: (value: T) => boolean; stop$: Observable<unknown> }): Observable<T>;
}

export type UploadFileType = 'video' | 'voice' | 'image';
export interface UploadProgress {
  loaded: number;
  total: number;
  done?: { file_id: number; url: string };
}
export interface UploadService {
  /** Signature → direct upload with progress → registration. Unsubscribing cancels the upload. */
  upload(file: File, fileType: UploadFileType, extra?: { duration?: number }): Observable<UploadProgress>;
}

export interface Command {
  /** `feature.thing`, unique. */
  id: string;
  title: string;
  /** Palette section. */
  section?: string;
  /** tinykeys bindings, e.g. `$mod+k` or `g h` (a sequence). */
  keys?: string[];
  keywords?: string;
  icon?: string;
  run(): void | Promise<void>;
  /** Hidden from the palette and keys while false. */
  when?(): boolean;
}

export interface CommandRegistry {
  readonly commands$: Observable<readonly Command[]>;
  register(command: Command): () => void;
  run(id: string): Promise<void>;
  list(): readonly Command[];
  /** Installs the key bindings on a target; returns the uninstaller. */
  bindKeys(target: Window | HTMLElement): () => void;
}

export interface PanelProps {
  query: Record<string, string>;
  /** Emits once when the panel is closed: stop polling and timers on it. */
  closed$: Observable<void>;
}
export type PanelComponent = ComponentType<PanelProps>;

export interface PanelContribution {
  /** The route path it serves. */
  route: string;
  component: LazyExoticComponent<PanelComponent> | PanelComponent;
  /** The panel only says 即将上线 (a placeholder for a screen not built yet): entry points carry the badge. */
  comingSoon?: boolean;
}

export interface PanelRegistry {
  get(route: string): PanelContribution | undefined;
  all(): readonly PanelContribution[];
}

export interface RouteRegistry {
  /** Routes visible on this host and build, in table order. */
  all(): readonly RouteDef[];
  find(path: string): RouteDef | undefined;
  /**
   * True when this build has the route's real screen: a plugin's panel that is not a 即将上线 placeholder.
   * Every entry point's 即将上线 badge derives from this, so it goes away by itself when a screen lands.
   */
  isBuilt(path: string): boolean;
}

export interface TopBarContribution {
  id: string;
  order: number;
  component: ComponentType;
}

/** Components mounted once at the workbench root (dialogs opened by commands). */
export interface DialogContribution {
  id: string;
  component: ComponentType;
}

/**
 * What a plugin's state service is given: the core services its screens call (the API, toasts, the session, the
 * address, polling, local storage, the token), injected as one so each state's constructor is one line.
 */
export interface ScreenServices {
  readonly api: ApiClient;
  readonly notifier: Notifier;
  readonly auth: AuthService;
  readonly navigation: Navigation;
  readonly polling: PollingService;
  readonly storage: Storage;
  readonly tokens: TokenStore;
}

export interface HostInfo {
  host: string;
  target: string;
  isHelperHost: boolean;
}
