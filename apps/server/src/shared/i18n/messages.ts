import { DEFAULT_LANGUAGE, isLanguage, type TLanguage } from '@mirra/contracts';

/**
 * Texts the server itself sends to people (emails, bot replies), in the six interface languages.
 * Placeholders are `{name}`. The web app translates API errors by their code, not from here.
 */
const catalogue = {
  en: {
    'email.activation.subject': 'Confirm your email for Mirra',
    'email.activation.body':
      'Hello{name},\n\nWelcome to Mirra! Confirm your email to activate your account:\n{link}\n\nThe link works for {days} days. If you did not sign up, ignore this email.',
    'email.reset.subject': 'Reset your Mirra password',
    'email.reset.body':
      'Hello{name},\n\nSomeone asked to reset the password of your Mirra account. To choose a new one, open:\n{link}\n\nThe link works for {hours} hours and only once. If it was not you, ignore this email: your password stays the same.',
    'bot.signed_in': 'Done! You are signed in to Mirra. Go back to the browser tab.',
    'bot.linked': 'Done! Your Telegram is now linked to your Mirra account. Go back to the browser tab.',
    'bot.identity_taken':
      'This Telegram account already belongs to another Mirra account. Sign in with Telegram instead, or use a different Telegram account.',
    'bot.link_expired': 'This sign-in link has expired or was already used. Ask for a new one on the site.',
    'bot.welcome': 'Hi! Mirra makes AI photos and videos of you. Open the app to start.',
    'bot.open_app': 'Open Mirra',
    'bot.model_ready': 'Your digital model “{name}” is ready! Open Mirra to make photos with your face.',
    'bot.open_model': 'Open my model',
    'bot.partner_joined': 'A new partner joined through your link: {name}.',
    'bot.commission_frozen':
      'You earned {amount} in partner commission. It is frozen for {days} days, then you can spend it or pay it out.',
    'bot.commission_available': 'Your partner commission of {amount} is now available.',
    'bot.payout_paid': 'Your pay-out of {amount} has been sent.',
    'bot.payout_rejected': 'Your pay-out of {amount} was rejected; the money is back in your wallet.',
    'bot.order_unavailable': 'This order can no longer be paid. Please start again in the app.',
    'bot.payment_unavailable_now': 'The payment cannot be accepted right now. Please try again.',
    'checkout.title': 'Test payment',
    'checkout.banner': 'Test payment — no money moves',
    'checkout.note':
      "This checkout belongs to Mirra's test payment provider. Nothing is charged, whatever you press.",
    'checkout.pay': 'Pay',
    'checkout.payDeclineLater': 'Pay, then decline renewals',
    'checkout.saveMethod': 'Card kept for renewals',
    'checkout.saveMethodNote': 'This card will be charged for renewals; you can cancel any time.',
    'checkout.decline': 'Decline',
    'checkout.cancel': 'Cancel',
    'checkout.refund': 'Refund',
    'checkout.order': 'Order',
    'checkout.amount': 'Amount',
    'checkout.status': 'Payment status',
    'checkout.back': 'Back to Mirra',
    'checkout.status.pending': 'pending',
    'checkout.status.paid': 'paid',
    'checkout.status.failed': 'declined',
    'checkout.status.cancelled': 'cancelled',
    'checkout.status.refunded': 'refunded',
    'notice.new_subscriber': '{name} subscribed to you on Mirra.',
    'notice.royalty': '{name} made a picture from your post: you earned {amount} credits.',
    'notice.generation_finished': 'Your generation is ready. Open Mirra to see it.',
    'notice.post_removed': 'Your post was taken down.',
    'notice.post_restored': 'Your post was reviewed and is visible again.',
    'notice.subscription_renewal_failed':
      'We could not renew your Premium subscription. Check your payment method in Mirra.',
    'preview.picture_by': 'A picture by {name}',
    'preview.video_by': 'A video by {name}',
    'preview.site_description': 'Mirra: AI pictures and videos of yourself.',
    'preview.revoked_title': 'No longer shared',
    'preview.revoked_description': 'Its owner stopped sharing this picture on Mirra.',
    'email.notice.subject': 'News from Mirra',
    'email.notice.body':
      'Hello{name},\n\n{text}\n\n{link}\n\nYou get these emails because you turned them on. To choose which notices you get, open {settings}',
  },
  ru: {
    'email.activation.subject': 'Подтвердите почту для Mirra',
    'email.activation.body':
      'Здравствуйте{name}!\n\nДобро пожаловать в Mirra! Подтвердите почту, чтобы активировать аккаунт:\n{link}\n\nСсылка действует {days} дн. Если вы не регистрировались, просто проигнорируйте это письмо.',
    'email.reset.subject': 'Сброс пароля Mirra',
    'email.reset.body':
      'Здравствуйте{name}!\n\nКто-то запросил сброс пароля вашего аккаунта Mirra. Чтобы задать новый пароль, откройте:\n{link}\n\nСсылка действует {hours} ч. и только один раз. Если это были не вы, проигнорируйте письмо: пароль останется прежним.',
    'bot.signed_in': 'Готово! Вы вошли в Mirra. Вернитесь во вкладку браузера.',
    'bot.linked': 'Готово! Telegram привязан к вашему аккаунту Mirra. Вернитесь во вкладку браузера.',
    'bot.identity_taken':
      'Этот аккаунт Telegram уже привязан к другому аккаунту Mirra. Войдите через Telegram или используйте другой аккаунт Telegram.',
    'bot.link_expired': 'Ссылка для входа устарела или уже использована. Запросите новую на сайте.',
    'bot.welcome': 'Привет! Mirra создаёт ваши фото и видео с помощью ИИ. Откройте приложение, чтобы начать.',
    'bot.open_app': 'Открыть Mirra',
    'bot.model_ready':
      'Ваша цифровая модель «{name}» готова! Откройте Mirra, чтобы создавать фото со своим лицом.',
    'bot.open_model': 'Открыть модель',
    'bot.partner_joined': 'По вашей ссылке зарегистрировался новый партнёр: {name}.',
    'bot.commission_frozen':
      'Вам начислено {amount} партнёрского вознаграждения. Оно заморожено на {days} дн., затем его можно потратить или вывести.',
    'bot.commission_available': 'Партнёрское вознаграждение {amount} теперь доступно.',
    'bot.payout_paid': 'Выплата {amount} отправлена.',
    'bot.payout_rejected': 'Выплата {amount} отклонена, деньги вернулись в кошелёк.',
    'bot.order_unavailable': 'Этот заказ больше нельзя оплатить. Начните заново в приложении.',
    'bot.payment_unavailable_now': 'Сейчас платёж не может быть принят. Попробуйте ещё раз.',
    'checkout.title': 'Тестовый платёж',
    'checkout.banner': 'Тестовый платёж — деньги не списываются',
    'checkout.note':
      'Эта страница оплаты принадлежит тестовому платёжному провайдеру Mirra. Что бы вы ни нажали, деньги не списываются.',
    'checkout.pay': 'Оплатить',
    'checkout.payDeclineLater': 'Оплатить, продления отклонять',
    'checkout.saveMethod': 'Карта для продлений',
    'checkout.saveMethodNote': 'Эта карта будет списываться при продлении; отменить можно в любой момент.',
    'checkout.decline': 'Отклонить',
    'checkout.cancel': 'Отменить',
    'checkout.refund': 'Вернуть деньги',
    'checkout.order': 'Заказ',
    'checkout.amount': 'Сумма',
    'checkout.status': 'Статус оплаты',
    'checkout.back': 'Вернуться в Mirra',
    'checkout.status.pending': 'ожидает оплаты',
    'checkout.status.paid': 'оплачен',
    'checkout.status.failed': 'отклонён',
    'checkout.status.cancelled': 'отменён',
    'checkout.status.refunded': 'возвращён',
    'notice.new_subscriber': '{name} подписался на вас в Mirra.',
    'notice.royalty': '{name} создал картинку по вашему посту: вам начислено {amount} кредитов.',
    'notice.generation_finished': 'Ваша генерация готова. Откройте Mirra, чтобы посмотреть.',
    'notice.post_removed': 'Ваш пост снят с публикации.',
    'notice.post_restored': 'Ваш пост проверен и снова виден всем.',
    'notice.subscription_renewal_failed':
      'Не удалось продлить подписку Premium. Проверьте способ оплаты в Mirra.',
    'preview.picture_by': 'Картинка от {name}',
    'preview.video_by': 'Видео от {name}',
    'preview.site_description': 'Mirra: ИИ-фото и видео с вами.',
    'preview.revoked_title': 'Больше не доступно по ссылке',
    'preview.revoked_description': 'Автор больше не делится этой картинкой в Mirra.',
    'email.notice.subject': 'Новости Mirra',
    'email.notice.body':
      'Здравствуйте{name}!\n\n{text}\n\n{link}\n\nВы получаете эти письма, потому что включили их. Выбрать, о чём сообщать, можно здесь: {settings}',
  },
  de: {
    'email.activation.subject': 'Bestätige deine E-Mail-Adresse für Mirra',
    'email.activation.body':
      'Hallo{name},\n\nwillkommen bei Mirra! Bestätige deine E-Mail-Adresse, um dein Konto zu aktivieren:\n{link}\n\nDer Link ist {days} Tage gültig. Wenn du dich nicht registriert hast, ignoriere diese E-Mail.',
    'email.reset.subject': 'Setze dein Mirra-Passwort zurück',
    'email.reset.body':
      'Hallo{name},\n\njemand hat das Zurücksetzen des Passworts deines Mirra-Kontos angefordert. Um ein neues zu wählen, öffne:\n{link}\n\nDer Link ist {hours} Stunden und nur einmal gültig. Wenn du das nicht warst, ignoriere diese E-Mail: Dein Passwort bleibt unverändert.',
    'bot.signed_in': 'Fertig! Du bist bei Mirra angemeldet. Kehre zum Browser-Tab zurück.',
    'bot.linked':
      'Fertig! Dein Telegram ist jetzt mit deinem Mirra-Konto verknüpft. Kehre zum Browser-Tab zurück.',
    'bot.identity_taken':
      'Dieses Telegram-Konto gehört bereits zu einem anderen Mirra-Konto. Melde dich stattdessen mit Telegram an oder nutze ein anderes Telegram-Konto.',
    'bot.link_expired':
      'Dieser Anmeldelink ist abgelaufen oder wurde bereits benutzt. Fordere auf der Website einen neuen an.',
    'bot.welcome': 'Hallo! Mirra erstellt KI-Fotos und -Videos von dir. Öffne die App, um loszulegen.',
    'bot.open_app': 'Mirra öffnen',
    'bot.model_ready':
      'Dein digitales Modell „{name}“ ist fertig! Öffne Mirra und erstelle Fotos mit deinem Gesicht.',
    'bot.open_model': 'Mein Modell öffnen',
    'bot.partner_joined': 'Ein neuer Partner hat sich über deinen Link angemeldet: {name}.',
    'bot.commission_frozen':
      'Du hast {amount} Partnerprovision verdient. Sie ist {days} Tage eingefroren, danach kannst du sie ausgeben oder auszahlen lassen.',
    'bot.commission_available': 'Deine Partnerprovision von {amount} ist jetzt verfügbar.',
    'bot.payout_paid': 'Deine Auszahlung von {amount} wurde gesendet.',
    'bot.payout_rejected':
      'Deine Auszahlung von {amount} wurde abgelehnt; das Geld ist zurück in deinem Wallet.',
    'bot.order_unavailable': 'Diese Bestellung kann nicht mehr bezahlt werden. Bitte starte in der App neu.',
    'bot.payment_unavailable_now':
      'Die Zahlung kann gerade nicht angenommen werden. Bitte versuche es noch einmal.',
    'checkout.title': 'Testzahlung',
    'checkout.banner': 'Testzahlung – es fließt kein Geld',
    'checkout.note':
      'Diese Kasse gehört zum Test-Zahlungsanbieter von Mirra. Was Sie auch drücken, nichts wird abgebucht.',
    'checkout.pay': 'Bezahlen',
    'checkout.payDeclineLater': 'Bezahlen, Verlängerungen ablehnen',
    'checkout.saveMethod': 'Karte für Verlängerungen',
    'checkout.saveMethodNote': 'Diese Karte wird für Verlängerungen belastet; du kannst jederzeit kündigen.',
    'checkout.decline': 'Ablehnen',
    'checkout.cancel': 'Abbrechen',
    'checkout.refund': 'Erstatten',
    'checkout.order': 'Bestellung',
    'checkout.amount': 'Betrag',
    'checkout.status': 'Zahlungsstatus',
    'checkout.back': 'Zurück zu Mirra',
    'checkout.status.pending': 'ausstehend',
    'checkout.status.paid': 'bezahlt',
    'checkout.status.failed': 'abgelehnt',
    'checkout.status.cancelled': 'abgebrochen',
    'checkout.status.refunded': 'erstattet',
    'notice.new_subscriber': '{name} hat dich auf Mirra abonniert.',
    'notice.royalty': '{name} hat ein Bild aus deinem Beitrag erstellt: Du hast {amount} Credits verdient.',
    'notice.generation_finished': 'Deine Generierung ist fertig. Öffne Mirra, um sie anzusehen.',
    'notice.post_removed': 'Dein Beitrag wurde entfernt.',
    'notice.post_restored': 'Dein Beitrag wurde geprüft und ist wieder sichtbar.',
    'notice.subscription_renewal_failed':
      'Dein Premium-Abo konnte nicht verlängert werden. Prüfe deine Zahlungsmethode in Mirra.',
    'preview.picture_by': 'Ein Bild von {name}',
    'preview.video_by': 'Ein Video von {name}',
    'preview.site_description': 'Mirra: KI-Bilder und -Videos von dir.',
    'preview.revoked_title': 'Nicht mehr geteilt',
    'preview.revoked_description': 'Die Person hat aufgehört, dieses Bild auf Mirra zu teilen.',
    'email.notice.subject': 'Neuigkeiten von Mirra',
    'email.notice.body':
      'Hallo{name},\n\n{text}\n\n{link}\n\nDu bekommst diese E-Mails, weil du sie eingeschaltet hast. Welche Benachrichtigungen du bekommst, wählst du hier: {settings}',
  },
  uk: {
    'email.activation.subject': 'Підтвердьте пошту для Mirra',
    'email.activation.body':
      'Вітаємо{name}!\n\nЛаскаво просимо до Mirra! Підтвердьте пошту, щоб активувати акаунт:\n{link}\n\nПосилання дійсне {days} дн. Якщо ви не реєструвалися, просто проігноруйте цей лист.',
    'email.reset.subject': 'Скидання пароля Mirra',
    'email.reset.body':
      'Вітаємо{name}!\n\nХтось запросив скидання пароля вашого акаунта Mirra. Щоб задати новий пароль, відкрийте:\n{link}\n\nПосилання дійсне {hours} год. і лише один раз. Якщо це були не ви, проігноруйте лист: пароль залишиться колишнім.',
    'bot.signed_in': 'Готово! Ви увійшли до Mirra. Поверніться до вкладки браузера.',
    'bot.linked': 'Готово! Telegram прив’язано до вашого акаунта Mirra. Поверніться до вкладки браузера.',
    'bot.identity_taken':
      'Цей акаунт Telegram уже прив’язано до іншого акаунта Mirra. Увійдіть через Telegram або скористайтеся іншим акаунтом Telegram.',
    'bot.link_expired': 'Посилання для входу застаріло або вже використане. Запросіть нове на сайті.',
    'bot.welcome':
      'Привіт! Mirra створює ваші фото й відео за допомогою ШІ. Відкрийте застосунок, щоб почати.',
    'bot.open_app': 'Відкрити Mirra',
    'bot.model_ready':
      'Ваша цифрова модель «{name}» готова! Відкрийте Mirra, щоб створювати фото зі своїм обличчям.',
    'bot.open_model': 'Відкрити модель',
    'bot.partner_joined': 'За вашим посиланням зареєструвався новий партнер: {name}.',
    'bot.commission_frozen':
      'Вам нараховано {amount} партнерської винагороди. Вона заморожена на {days} дн., потім її можна витратити або вивести.',
    'bot.commission_available': 'Партнерська винагорода {amount} тепер доступна.',
    'bot.payout_paid': 'Виплату {amount} надіслано.',
    'bot.payout_rejected': 'Виплату {amount} відхилено, гроші повернулися в гаманець.',
    'bot.order_unavailable': 'Це замовлення більше не можна оплатити. Почніть заново в застосунку.',
    'bot.payment_unavailable_now': 'Зараз платіж не може бути прийнятий. Спробуйте ще раз.',
    'checkout.title': 'Тестовий платіж',
    'checkout.banner': 'Тестовий платіж — гроші не списуються',
    'checkout.note':
      'Ця сторінка оплати належить тестовому платіжному провайдеру Mirra. Що б ви не натиснули, гроші не списуються.',
    'checkout.pay': 'Сплатити',
    'checkout.payDeclineLater': 'Сплатити, продовження відхиляти',
    'checkout.saveMethod': 'Картка для продовжень',
    'checkout.saveMethodNote':
      'З цієї картки списуватиметься плата за продовження; скасувати можна будь-коли.',
    'checkout.decline': 'Відхилити',
    'checkout.cancel': 'Скасувати',
    'checkout.refund': 'Повернути гроші',
    'checkout.order': 'Замовлення',
    'checkout.amount': 'Сума',
    'checkout.status': 'Статус оплати',
    'checkout.back': 'Повернутися до Mirra',
    'checkout.status.pending': 'очікує оплати',
    'checkout.status.paid': 'сплачено',
    'checkout.status.failed': 'відхилено',
    'checkout.status.cancelled': 'скасовано',
    'checkout.status.refunded': 'повернено',
    'notice.new_subscriber': '{name} підписався на вас у Mirra.',
    'notice.royalty': '{name} створив зображення за вашим постом: вам нараховано {amount} кредитів.',
    'notice.generation_finished': 'Ваша генерація готова. Відкрийте Mirra, щоб переглянути.',
    'notice.post_removed': 'Ваш пост знято з публікації.',
    'notice.post_restored': 'Ваш пост перевірено, і він знову видимий.',
    'notice.subscription_renewal_failed':
      'Не вдалося продовжити підписку Premium. Перевірте спосіб оплати в Mirra.',
    'preview.picture_by': 'Картинка від {name}',
    'preview.video_by': 'Відео від {name}',
    'preview.site_description': 'Mirra: ШІ-фото та відео з вами.',
    'preview.revoked_title': 'Більше не доступно за посиланням',
    'preview.revoked_description': 'Автор більше не ділиться цією картинкою в Mirra.',
    'email.notice.subject': 'Новини Mirra',
    'email.notice.body':
      'Вітаємо{name}!\n\n{text}\n\n{link}\n\nВи отримуєте ці листи, бо ввімкнули їх. Обрати, про що повідомляти, можна тут: {settings}',
  },
  kk: {
    'email.activation.subject': 'Mirra үшін поштаңызды растаңыз',
    'email.activation.body':
      'Сәлеметсіз бе{name}!\n\nMirra-ға қош келдіңіз! Аккаунтты белсендіру үшін поштаңызды растаңыз:\n{link}\n\nСілтеме {days} күн жарамды. Егер сіз тіркелмеген болсаңыз, бұл хатты елемеңіз.',
    'email.reset.subject': 'Mirra құпиясөзін қалпына келтіру',
    'email.reset.body':
      'Сәлеметсіз бе{name}!\n\nБіреу сіздің Mirra аккаунтыңыздың құпиясөзін қалпына келтіруді сұрады. Жаңа құпиясөз орнату үшін ашыңыз:\n{link}\n\nСілтеме {hours} сағат және тек бір рет жарамды. Егер бұл сіз болмасаңыз, хатты елемеңіз: құпиясөзіңіз өзгермейді.',
    'bot.signed_in': 'Дайын! Сіз Mirra-ға кірдіңіз. Браузер қойындысына оралыңыз.',
    'bot.linked': 'Дайын! Telegram сіздің Mirra аккаунтыңызға байланыстырылды. Браузер қойындысына оралыңыз.',
    'bot.identity_taken':
      'Бұл Telegram аккаунты басқа Mirra аккаунтына тиесілі. Telegram арқылы кіріңіз немесе басқа Telegram аккаунтын пайдаланыңыз.',
    'bot.link_expired': 'Кіру сілтемесінің мерзімі өтті немесе ол пайдаланылды. Сайттан жаңасын сұраңыз.',
    'bot.welcome':
      'Сәлем! Mirra ЖИ көмегімен сіздің фото және бейнелеріңізді жасайды. Бастау үшін қолданбаны ашыңыз.',
    'bot.open_app': 'Mirra-ны ашу',
    'bot.model_ready':
      'Сіздің «{name}» цифрлық моделіңіз дайын! Өз бейнеңізбен фотолар жасау үшін Mirra-ны ашыңыз.',
    'bot.open_model': 'Модельді ашу',
    'bot.partner_joined': 'Сіздің сілтемеңіз арқылы жаңа серіктес тіркелді: {name}.',
    'bot.commission_frozen':
      'Сізге {amount} серіктестік сыйақы есептелді. Ол {days} күнге тоңазытылған, содан кейін оны жұмсауға немесе шығаруға болады.',
    'bot.commission_available': '{amount} серіктестік сыйақы енді қолжетімді.',
    'bot.payout_paid': '{amount} төлемі жіберілді.',
    'bot.payout_rejected': '{amount} төлемі қабылданбады, ақша әмиянға қайтарылды.',
    'bot.order_unavailable': 'Бұл тапсырысты енді төлеу мүмкін емес. Қолданбада қайта бастаңыз.',
    'bot.payment_unavailable_now': 'Қазір төлемді қабылдау мүмкін емес. Қайталап көріңіз.',
    'checkout.title': 'Сынақ төлемі',
    'checkout.banner': 'Сынақ төлемі — ақша шешілмейді',
    'checkout.note':
      'Бұл төлем беті Mirra-ның сынақ төлем провайдеріне тиесілі. Қай батырманы бассаңыз да, ақша шешілмейді.',
    'checkout.pay': 'Төлеу',
    'checkout.payDeclineLater': 'Төлеу, ұзартуларды қабылдамау',
    'checkout.saveMethod': 'Ұзартуға арналған карта',
    'checkout.saveMethodNote': 'Бұл картадан ұзарту ақысы алынады; кез келген уақытта бас тартуға болады.',
    'checkout.decline': 'Қабылдамау',
    'checkout.cancel': 'Бас тарту',
    'checkout.refund': 'Ақшаны қайтару',
    'checkout.order': 'Тапсырыс',
    'checkout.amount': 'Сома',
    'checkout.status': 'Күйі',
    'checkout.back': 'Mirra-ға оралу',
    'checkout.status.pending': 'төлем күтілуде',
    'checkout.status.paid': 'төленді',
    'checkout.status.failed': 'қабылданбады',
    'checkout.status.cancelled': 'бас тартылды',
    'checkout.status.refunded': 'қайтарылды',
    'notice.new_subscriber': '{name} Mirra-да сізге жазылды.',
    'notice.royalty': '{name} сіздің постыңыз бойынша сурет жасады: сізге {amount} кредит есептелді.',
    'notice.generation_finished': 'Генерацияңыз дайын. Көру үшін Mirra-ны ашыңыз.',
    'notice.post_removed': 'Постыңыз жарияланымнан алынды.',
    'notice.post_restored': 'Постыңыз тексерілді және қайта көрінеді.',
    'notice.subscription_renewal_failed':
      'Premium жазылымын ұзарту мүмкін болмады. Mirra-да төлем әдісін тексеріңіз.',
    'preview.picture_by': '{name} жасаған сурет',
    'preview.video_by': '{name} жасаған бейне',
    'preview.site_description': 'Mirra: сіз бейнеленген ЖИ суреттері мен бейнелері.',
    'preview.revoked_title': 'Енді бөлісілмейді',
    'preview.revoked_description': 'Авторы бұл суретпен Mirra-да бөлісуді тоқтатты.',
    'email.notice.subject': 'Mirra жаңалықтары',
    'email.notice.body':
      'Сәлеметсіз бе{name}!\n\n{text}\n\n{link}\n\nБұл хаттарды өзіңіз қосқандықтан аласыз. Қандай хабарламалар алатыныңызды мұнда таңдаңыз: {settings}',
  },
  az: {
    'email.activation.subject': 'Mirra üçün e-poçtunuzu təsdiqləyin',
    'email.activation.body':
      'Salam{name}!\n\nMirra-ya xoş gəlmisiniz! Hesabınızı aktivləşdirmək üçün e-poçtunuzu təsdiqləyin:\n{link}\n\nKeçid {days} gün etibarlıdır. Əgər qeydiyyatdan keçməmisinizsə, bu məktubu nəzərə almayın.',
    'email.reset.subject': 'Mirra şifrənizin bərpası',
    'email.reset.body':
      'Salam{name}!\n\nKimsə Mirra hesabınızın şifrəsinin bərpasını istədi. Yeni şifrə təyin etmək üçün açın:\n{link}\n\nKeçid {hours} saat və yalnız bir dəfə etibarlıdır. Əgər bu siz deyildinizsə, məktubu nəzərə almayın: şifrəniz dəyişməyəcək.',
    'bot.signed_in': 'Hazırdır! Mirra-ya daxil oldunuz. Brauzer vərəqinə qayıdın.',
    'bot.linked': 'Hazırdır! Telegram Mirra hesabınıza bağlandı. Brauzer vərəqinə qayıdın.',
    'bot.identity_taken':
      'Bu Telegram hesabı artıq başqa Mirra hesabına aiddir. Telegram ilə daxil olun və ya başqa Telegram hesabından istifadə edin.',
    'bot.link_expired':
      'Bu giriş keçidinin müddəti bitib və ya artıq istifadə olunub. Saytda yenisini istəyin.',
    'bot.welcome':
      'Salam! Mirra süni intellektlə sizin foto və videolarınızı yaradır. Başlamaq üçün tətbiqi açın.',
    'bot.open_app': 'Mirra-nı aç',
    'bot.model_ready':
      '“{name}” rəqəmsal modeliniz hazırdır! Öz üzünüzlə fotolar yaratmaq üçün Mirra-nı açın.',
    'bot.open_model': 'Modelimi aç',
    'bot.partner_joined': 'Linkiniz vasitəsilə yeni tərəfdaş qoşuldu: {name}.',
    'bot.commission_frozen':
      'Sizə {amount} tərəfdaş komissiyası hesablandı. O, {days} gün dondurulub, sonra onu xərcləyə və ya çıxara bilərsiniz.',
    'bot.commission_available': '{amount} tərəfdaş komissiyanız artıq əlçatandır.',
    'bot.payout_paid': '{amount} ödənişiniz göndərildi.',
    'bot.payout_rejected': '{amount} ödənişiniz rədd edildi; pul pul kisənizə qaytarıldı.',
    'bot.order_unavailable': 'Bu sifarişi artıq ödəmək mümkün deyil. Tətbiqdə yenidən başlayın.',
    'bot.payment_unavailable_now': 'Ödəniş hazırda qəbul edilə bilmir. Yenidən cəhd edin.',
    'checkout.title': 'Test ödənişi',
    'checkout.banner': 'Test ödənişi — pul köçürülmür',
    'checkout.note':
      'Bu ödəniş səhifəsi Mirra-nın test ödəniş provayderinə aiddir. Nəyi bassanız da, pul tutulmur.',
    'checkout.pay': 'Ödə',
    'checkout.payDeclineLater': 'Ödə, yeniləmələri rədd et',
    'checkout.saveMethod': 'Yeniləmələr üçün kart',
    'checkout.saveMethodNote':
      'Bu kartdan yeniləmələr üçün ödəniş tutulacaq; istənilən vaxt ləğv edə bilərsiniz.',
    'checkout.decline': 'İmtina et',
    'checkout.cancel': 'Ləğv et',
    'checkout.refund': 'Pulu qaytar',
    'checkout.order': 'Sifariş',
    'checkout.amount': 'Məbləğ',
    'checkout.status': 'Ödəniş statusu',
    'checkout.back': 'Mirra-ya qayıt',
    'checkout.status.pending': 'ödəniş gözlənilir',
    'checkout.status.paid': 'ödənilib',
    'checkout.status.failed': 'rədd edilib',
    'checkout.status.cancelled': 'ləğv edilib',
    'checkout.status.refunded': 'qaytarılıb',
    'notice.new_subscriber': '{name} Mirra-da sizə abunə oldu.',
    'notice.royalty': '{name} paylaşımınızdan şəkil yaratdı: sizə {amount} kredit hesablandı.',
    'notice.generation_finished': 'Generasiyanız hazırdır. Baxmaq üçün Mirra-nı açın.',
    'notice.post_removed': 'Paylaşımınız yayımdan götürüldü.',
    'notice.post_restored': 'Paylaşımınız yoxlanıldı və yenidən görünür.',
    'notice.subscription_renewal_failed':
      'Premium abunəliyinizi uzatmaq mümkün olmadı. Mirra-da ödəniş üsulunu yoxlayın.',
    'preview.picture_by': '{name} tərəfindən şəkil',
    'preview.video_by': '{name} tərəfindən video',
    'preview.site_description': 'Mirra: sizin süni intellektlə yaradılmış şəkil və videolarınız.',
    'preview.revoked_title': 'Artıq paylaşılmır',
    'preview.revoked_description': 'Müəllif bu şəkli Mirra-da paylaşmağı dayandırdı.',
    'email.notice.subject': 'Mirra xəbərləri',
    'email.notice.body':
      'Salam{name},\n\n{text}\n\n{link}\n\nBu məktubları özünüz aktiv etdiyiniz üçün alırsınız. Hansı bildirişləri alacağınızı burada seçin: {settings}',
  },
} as const satisfies Record<TLanguage, Record<string, string>>;

export type MessageKey = keyof (typeof catalogue)['en'];
export const serverCatalogue: Record<TLanguage, Record<MessageKey, string>> = catalogue;

/** A server text in `language` (falling back to English), with `{placeholders}` filled in. */
export function translate(
  language: string | null | undefined,
  key: MessageKey,
  values: Record<string, string | number> = {},
): string {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  const template = serverCatalogue[lang][key] || serverCatalogue[DEFAULT_LANGUAGE][key];
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  );
}
