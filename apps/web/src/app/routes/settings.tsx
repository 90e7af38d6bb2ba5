import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import {
  IconBell,
  IconChat,
  IconChevron,
  IconCrown,
  IconDownload,
  IconExternal,
  IconGlobe,
  IconHelp,
  IconInfo,
  IconLogout,
  IconMoon,
  IconShield,
  IconSparkles,
  IconTrash,
  IconTelegram,
  IconUser,
  IconUsers,
} from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { usePublicConfig } from '../../features/auth';
import { useAiOffered } from '../../features/generations';
import {
  ChangePasswordSheet,
  DeleteAccountSheet,
  downloadMyData,
  InfoSheet,
  type InfoTopic,
} from '../../features/settings';
import { useAppStore } from '../../lib/app-store';
import { currentLanguage, LANGUAGE_NAMES } from '../../lib/i18n';
import { signOut, useSession } from '../../lib/session';
import { isInTelegram } from '../../lib/telegram/detect';

type Row =
  | { key: string; Icon: ComponentType<{ size?: number }>; to: string; value?: string }
  | { key: string; Icon: ComponentType<{ size?: number }>; onClick(): void; value?: string }
  | { key: string; Icon: ComponentType<{ size?: number }>; href: string; value?: string };

function RowView({ row, label }: { row: Row; label: string }) {
  const inner = (
    <>
      <span className="list__icon">
        <row.Icon size={20} />
      </span>
      <span className="list__label">{label}</span>
      {row.value && <span className="list__value">{row.value}</span>}
      {'href' in row ? <IconExternal size={18} /> : <IconChevron size={18} />}
    </>
  );
  if ('to' in row) {
    return (
      <Link to={row.to} className="list__row" data-testid={`settings-${row.key}`}>
        {inner}
      </Link>
    );
  }
  if ('href' in row) {
    return (
      <a
        href={row.href}
        className="list__row"
        target="_blank"
        rel="noreferrer"
        data-testid={`settings-${row.key}`}
      >
        {inner}
      </a>
    );
  }
  return (
    <button type="button" className="list__row" onClick={row.onClick} data-testid={`settings-${row.key}`}>
      {inner}
    </button>
  );
}

/** Settings: every section, language and theme at hand, and sign-out. */
export function Page() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const theme = useAppStore((s) => s.theme);
  const config = usePublicConfig();
  const aiOffered = useAiOffered();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [info, setInfo] = useState<InfoTopic | null>(null);
  const bot = config.data?.telegram_bot_username;
  const miniAppUrl = bot
    ? config.data?.telegram_mini_app_name
      ? `https://t.me/${bot}/${config.data.telegram_mini_app_name}`
      : `https://t.me/${bot}?startapp`
    : null;

  const groups: Array<{ title: string; rows: Row[] }> = [
    {
      title: 'settings.groups.account',
      rows: [
        { key: 'subscription', Icon: IconCrown, to: '/settings/subscription/' },
        { key: 'mlm', Icon: IconUsers, to: '/settings/mlm/' },
        { key: 'profile', Icon: IconUser, to: '/profile-edit/' },
        {
          key: 'exportData',
          Icon: IconDownload,
          onClick: () => {
            downloadMyData().then(
              () => useAppStore.getState().showTopinfo('success', t('exportData.started')),
              () => useAppStore.getState().showTopinfo('error', t('exportData.failed')),
            );
          },
        },
        { key: 'deleteAccount', Icon: IconTrash, onClick: () => setDeleteOpen(true) },
      ],
    },
    {
      title: 'settings.groups.preferences',
      rows: [
        {
          key: 'language',
          Icon: IconGlobe,
          to: '/settings/language/',
          value: LANGUAGE_NAMES[currentLanguage()],
        },
        { key: 'theme', Icon: IconMoon, to: '/settings/theme/', value: t(`theme.${theme}`) },
        { key: 'notifications', Icon: IconBell, to: '/settings/notifications/' },
        ...(user?.registered
          ? [{ key: 'security', Icon: IconShield, onClick: () => setPasswordOpen(true) }]
          : []),
      ],
    },
    {
      title: 'settings.groups.help',
      rows: [
        { key: 'support', Icon: IconHelp, onClick: () => setInfo('support') },
        { key: 'faq', Icon: IconInfo, onClick: () => setInfo('faq') },
        { key: 'features', Icon: IconSparkles, onClick: () => setInfo('features') },
        { key: 'socials', Icon: IconChat, to: '/settings/socials/' },
        { key: 'takedown', Icon: IconShield, to: '/takedown/' },
        ...(miniAppUrl && !isInTelegram()
          ? [{ key: 'otherServices', Icon: IconTelegram, href: miniAppUrl }]
          : []),
      ],
    },
  ];

  return (
    <PageFrame width="narrow" testId="settings-page">
      {groups.map((group) => (
        <section key={group.title} className="settings-group">
          <h2 className="settings-group__title">{t(group.title)}</h2>
          <div className="list">
            {group.rows.map((row) => (
              <RowView key={row.key} row={row} label={t(`settings.items.${row.key}`)} />
            ))}
          </div>
        </section>
      ))}
      {!isInTelegram() && (
        <Button
          theme="danger"
          size="lg"
          block
          icon={<IconLogout size={20} />}
          data-testid="sign-out"
          onClick={async () => {
            // Leave the login-required page first, so signing out does not open the sign-in popup.
            await navigate('/');
            await signOut();
            useAppStore.getState().showTopinfo('success', t('settings.signedOut'));
          }}
        >
          {t('settings.signOut')}
        </Button>
      )}
      <p className="muted-note center">{user?.email ?? ''}</p>
      <ChangePasswordSheet open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <DeleteAccountSheet
        open={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        hasPassword={Boolean(user?.registered)}
      />
      <InfoSheet
        topic={info}
        onClose={() => setInfo(null)}
        aiOffered={aiOffered}
        support={
          config.data && {
            telegramUrl: config.data.support_telegram_url,
            email: config.data.support_email,
          }
        }
      />
    </PageFrame>
  );
}
