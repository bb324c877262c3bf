import { type ProfileForm, profileFormSchema } from '@bytegate/contracts/account';
import { messages } from '@bytegate/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { useSession } from '../../session/session-store.ts';

/** Profile details. Saving is a local simulation (SPEC section 7): no server call. */
export function ProfileCard() {
  const session = useSession();
  const user = session?.user;
  const form = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    values: {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      company: user?.company ?? '',
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(() => {
    toast.success(messages.profileUpdated);
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>Your name and contact details.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <FormField
            label="First Name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <FormField
            label="Last Name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
          <FormField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <FormField
            label="Company"
            hint="(optional)"
            autoComplete="organization"
            {...form.register('company')}
          />
        </CardContent>
        <CardFooter>
          <Button type="submit">Save Changes</Button>
        </CardFooter>
      </form>
    </Card>
  );
}
