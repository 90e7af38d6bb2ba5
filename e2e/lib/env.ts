/** What e2e/run.ts started, handed to the specs through the environment. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with \`npm run test:e2e\`.`);
  return value;
}

export const e2eEnv = {
  get baseUrl() {
    return required('E2E_BASE_URL');
  },
  get dataDir() {
    return required('E2E_DATA_DIR');
  },
  get fakeTelegramUrl() {
    return required('E2E_FAKE_TELEGRAM_URL');
  },
  get botToken() {
    return required('E2E_BOT_TOKEN');
  },
  get botUsername() {
    return required('E2E_BOT_USERNAME');
  },
  /** Seconds written here move the server's clock ahead (DEV_CLOCK_FILE). */
  get clockFile() {
    return required('E2E_CLOCK_FILE');
  },
  get resultsDir() {
    return required('E2E_RESULTS_DIR');
  },
};
